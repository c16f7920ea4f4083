import COpenSSL
import Glibc

/// Owns an `SSL_CTX` configured for a server: TLS 1.2+, the certificate chain, ALPN h2/http1.1.
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

        SSL_CTX_set_alpn_select_cb(
            ctx,
            { _, out, outlen, inp, inlen, _ in
                // Pick h2, else http/1.1; with neither, go on without ALPN (preface detection decides).
                rc_alpn_pick(out, outlen, inp, inlen) != 0 ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_NOACK
            }, nil)
    }

    deinit { SSL_CTX_free(ctx) }

    private static func load(_ source: TLSConfiguration.PEMSource, what: String) throws -> String {
        switch source {
        case .pem(let s): return s
        case .file(let path):
            guard let f = fopen(path, "rb") else { throw HTTPServerError.posix("open \(what) \(path)", errno) }
            defer { fclose(f) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let n = fread(&chunk, 1, chunk.count, f)
                if n <= 0 { break }
                bytes.append(contentsOf: chunk[0..<n])
            }
            return String(decoding: bytes, as: UTF8.self)
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

/// One TLS connection's `SSL*` driven through memory BIOs: ciphertext in and out is the caller's business.
final class TLSSession {
    private let ssl: OpaquePointer
    private let rbio: OpaquePointer
    private let wbio: OpaquePointer
    private(set) var handshakeComplete = false

    init?(context: TLSContext) {
        guard let ssl = SSL_new(context.ctx) else { return nil }
        guard let rbio = BIO_new(BIO_s_mem()), let wbio = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            return nil
        }
        // An empty memory BIO should mean "want more", not end of stream.
        _ = rc_BIO_set_mem_eof_return(rbio, -1)
        _ = rc_BIO_set_mem_eof_return(wbio, -1)
        SSL_set_bio(ssl, rbio, wbio)  // the SSL now owns both BIOs
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.rbio = rbio
        self.wbio = wbio
    }

    deinit { SSL_free(ssl) }

    enum Progress {
        case needMore
        case done
        case failed
    }

    /// Feeds ciphertext from the socket.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = BIO_write(rbio, base, Int32(bytes.count))
    }

    /// Advances the handshake with what has been fed.
    func handshake() -> Progress {
        let r = SSL_do_handshake(ssl)
        if r == 1 {
            handshakeComplete = true
            return .done
        }
        let e = SSL_get_error(ssl, r)
        if e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE { return .needMore }
        ERR_clear_error()
        return .failed
    }

    enum ReadResult {
        case bytes(Int)
        case needMore
        case closed
    }

    /// Decrypts into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let r = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
        if r > 0 { return .bytes(Int(r)) }
        let e = SSL_get_error(ssl, r)
        if e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE { return .needMore }
        ERR_clear_error()
        return .closed
    }

    /// Encrypts plaintext into the outgoing BIO; false when the session is broken.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let r = SSL_write(ssl, base, Int32(bytes.count))
        if r == bytes.count { return true }
        ERR_clear_error()
        return false
    }

    /// Sends close_notify into the outgoing BIO.
    func shutdown() {
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Moves pending ciphertext to `out`.
    func drainCiphertext(into out: inout [UInt8]) {
        var pending = Int(rc_BIO_pending(wbio))
        while pending > 0 {
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: pending))
            let n = out.withUnsafeMutableBytes { p in BIO_read(wbio, p.baseAddress! + start, Int32(pending)) }
            if n < pending { out.removeLast(pending - max(0, Int(n))) }
            if n <= 0 { break }
            pending = Int(rc_BIO_pending(wbio))
        }
    }

    /// The protocol ALPN settled on, if any.
    var alpn: String? {
        var p: UnsafePointer<UInt8>?
        var len: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &p, &len)
        guard let p, len > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(len)), as: UTF8.self)
    }

    /// The SNI host name the client sent, if any.
    var serverName: String? {
        guard let p = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else { return nil }
        return String(cString: p)
    }
}
