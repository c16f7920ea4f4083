import COpenSSL
import Glibc
import InputLimits

/// Owns an `SSL_CTX` configured for a server: TLS 1.2+, the certificate chain, ALPN h2 (and http/1.1 unless
/// the configuration serves HTTP/2 only).
final class TLSContext: @unchecked Sendable {  // SSL_CTX is immutable after init and safe to share
    let ctx: OpaquePointer

    init(_ configuration: TLSConfiguration) throws {
        let chainPEM = try Self.load(configuration.certificateChain, what: "certificate chain")
        let keyPEM = try Self.load(configuration.privateKey, what: "private key")
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw HTTPServerError.openSSL("SSL_CTX_new") }
        self.ctx = ctx
        _ = rc_SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)
        _ = SSL_CTX_set_options(ctx, rc_SSL_OP_NO_COMPRESSION | rc_SSL_OP_NO_RENEGOTIATION)
        _ = rc_SSL_CTX_set_mode(ctx, Int(SSL_MODE_RELEASE_BUFFERS))

        // The chain: leaf first, then intermediates.
        var certs = try Self.readCertificates(chainPEM)
        guard !certs.isEmpty else {
            throw HTTPServerError(operation: "load certificate chain", message: "no certificate in the PEM text")
        }
        let leaf = certs.removeFirst()
        defer { X509_free(leaf) }
        guard SSL_CTX_use_certificate(ctx, leaf) == 1 else { throw HTTPServerError.openSSL("SSL_CTX_use_certificate") }
        for cert in certs where rc_SSL_CTX_add0_chain_cert(ctx, cert) != 1 {
            throw HTTPServerError.openSSL("SSL_CTX_add0_chain_cert")
        }
        let key: OpaquePointer? = keyPEM.withCString { p in
            let bio = BIO_new_mem_buf(p, -1)
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else { throw HTTPServerError.openSSL("PEM_read_bio_PrivateKey") }
        defer { EVP_PKEY_free(key) }
        guard SSL_CTX_use_PrivateKey(ctx, key) == 1 else { throw HTTPServerError.openSSL("SSL_CTX_use_PrivateKey") }
        guard SSL_CTX_check_private_key(ctx) == 1 else { throw HTTPServerError.openSSL("SSL_CTX_check_private_key") }

        // The callback's argument says whether http/1.1 may be picked: a non-nil pointer (never
        // dereferenced) for yes, nil for an h2-only listener.
        let allowHTTP1 = configuration.offersHTTP1 ? UnsafeMutableRawPointer(bitPattern: 1) : nil
        SSL_CTX_set_alpn_select_cb(
            ctx,
            { _, out, outlen, inp, inlen, arg in
                // Pick h2, else http/1.1 (when offered); with neither, go on without ALPN (preface
                // detection decides).
                rc_alpn_pick(out, outlen, inp, inlen, arg == nil ? 0 : 1) != 0
                    ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK
            }, allowHTTP1)
    }

    deinit { SSL_CTX_free(ctx) }

    private static func load(_ source: TLSConfiguration.PEMSource, what: String) throws -> String {
        switch source {
        case .pem(let s): return s
        case .file(let path):
            do { return try BoundedFile.text(path) } catch {
                guard case .tooLarge = error.reason else { throw HTTPServerError.posix("open \(what) \(path)", errno) }
                throw error
            }
        }
    }

    private static func readCertificates(_ pem: String) throws -> [OpaquePointer] {
        pem.withCString { p in
            let bio = BIO_new_mem_buf(p, -1)
            defer { BIO_free(bio) }
            var certs: [OpaquePointer] = []
            while let cert = PEM_read_bio_X509(bio, nil, nil, nil) { certs.append(cert) }
            ERR_clear_error()  // the loop ends on an expected "no start line"
            return certs
        }
    }
}
