import COpenSSL

/// HMAC (RFC 2104) and constant-time comparison.
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                // An empty key still needs a non-null pointer for OpenSSL.
                let keyPointer = k.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                return COpenSSL.HMAC(
                    EVP_sha256(), keyPointer, Int32(k.count), m.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    m.count, &out, &length)
            }
        }
        precondition(result != nil && length == 32, "HMAC(SHA-256) failed" + OpenSSLErrors.drain())
        return out
    }

    /// True when `a` and `b` are equal; the time taken does not depend on where they differ.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 }
        }
    }
}
