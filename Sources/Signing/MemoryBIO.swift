import COpenSSL

/// Helpers for moving PEM and DER through OpenSSL memory BIOs.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `text`'s UTF-8 bytes.
    static func reading<T>(_ text: String, _ body: (OpaquePointer) throws(SigningError) -> T) throws(SigningError) -> T
    {
        let bytes = Array(text.utf8)
        let bio: OpaquePointer? = bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { throw SigningError.openssl("BIO_new_mem_buf") }
        defer { BIO_free(bio) }
        // BIO_new_mem_buf does not copy, so `bytes` must stay alive until `body` returns.
        return try withExtendedLifetime(bytes) { () throws(SigningError) -> T in try body(bio) }
    }

    /// Creates a writable BIO, lets `body` write into it, and returns what was written as text.
    static func writing(_ operation: String, _ body: (OpaquePointer) -> Int32) throws(SigningError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw SigningError.openssl("BIO_new") }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { throw SigningError.openssl(operation) }
        var pointer: UnsafeMutablePointer<CChar>? = nil
        let length = rc_BIO_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

/// DER encoding of OpenSSL objects through their `i2d_*` functions.
enum DER {
    /// Calls an `i2d_*`-style function twice: once for the length, once to fill the buffer.
    static func encode(_ operation: String, _ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32)
        throws(SigningError) -> [UInt8]
    {
        let length = i2d(nil)
        guard length > 0 else { throw SigningError.openssl(operation) }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var p: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d(&p)
        }
        guard written == length else { throw SigningError.openssl(operation) }
        return out
    }
}
