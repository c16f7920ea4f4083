import COpenSSL

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
