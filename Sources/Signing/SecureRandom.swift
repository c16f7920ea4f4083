import COpenSSL

/// Cryptographically secure random values from OpenSSL's DRBG.
public enum SecureRandom {
    /// `n` random bytes.
    public static func bytes(_ n: Int) -> [UInt8] {
        guard n > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: n)
        // RAND_bytes only fails when the DRBG cannot be seeded; continuing would hand out predictable values.
        precondition(RAND_bytes(&out, Int32(n)) == 1, "RAND_bytes failed" + OpenSSLErrors.drain())
        return out
    }

    /// A random (version 4) UUID in lowercase, e.g. `"3b241101-e2bb-4255-8caf-4136c566a962"`.
    public static func uuid() -> String {
        var b = bytes(16)
        b[6] = b[6] & 0x0F | 0x40
        b[8] = b[8] & 0x3F | 0x80
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `n` random characters from `[A-Z0-9]` (or `[A-Za-z0-9]` when `uppercaseOnly` is false), without modulo bias.
    public static func alphanumeric(_ n: Int, uppercaseOnly: Bool = true) -> String {
        let alphabet = Array(
            (uppercaseOnly
                ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                .utf8)
        // Reject bytes at or above the largest multiple of the alphabet size so every character is equally likely.
        let limit = 256 - 256 % alphabet.count
        var out: [UInt8] = []
        out.reserveCapacity(max(n, 0))
        while out.count < n {
            for byte in bytes(n - out.count + 8) where Int(byte) < limit && out.count < n {
                out.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `n` random bytes as lowercase hex (2n characters).
    static func hex(_ n: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes(n) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
