import Signing
import Synchronization

/// Identifiers the mocks make up: UUIDs (`apns-id`, `apns-unique-id`), access tokens, message IDs.
///
/// Randomness comes from `SecureRandom` (OpenSSL's DRBG), so access tokens are unguessable.
enum MockIDs {
    /// A random (version 4) UUID in upper-case canonical form, as APNs writes them.
    static func uuid() -> String { uuid(digits: upperHexDigits) }

    /// A random (version 4) UUID in lower-case canonical form.
    static func lowercaseUUID() -> String { uuid(digits: lowerHexDigits) }

    private static func uuid(digits: [UInt8]) -> String {
        let (high, low) = randomPool.withLock { $0.next128() }
        return String(unsafeUninitializedCapacity: 36) { out in
            var n = 0
            for i in 0..<16 {
                var b = UInt8(truncatingIfNeeded: i < 8 ? high >> (56 - 8 * i) : low >> (56 - 8 * (i - 8)))
                if i == 6 { b = b & 0x0F | 0x40 }
                if i == 8 { b = b & 0x3F | 0x80 }
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[n] = UInt8(ascii: "-")
                    n += 1
                }
                out[n] = digits[Int(b >> 4)]
                out[n + 1] = digits[Int(b & 0xF)]
                n += 2
            }
            return n
        }
    }

    /// Random bytes for UUIDs, drawn from `SecureRandom` a block at a time: a mock makes an `apns-id`
    /// for every push, and one `RAND_bytes` call each (with OpenSSL's locking and fork check) cost
    /// more than formatting the UUID.
    private static let randomPool = Mutex(RandomPool())

    private struct RandomPool {
        var block: [UInt8] = []
        var offset = 0

        mutating func next128() -> (UInt64, UInt64) {
            if offset + 16 > block.count {
                block = SecureRandom.bytes(4096)
                offset = 0
            }
            defer { offset += 16 }
            return block.withUnsafeBytes {
                (
                    $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                    $0.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                )
            }
        }
    }

    /// True for a canonical UUID string (8-4-4-4-12 hexadecimal digits, any case).
    static func isUUID(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            guard bytes.count == 36 else { return false }
            for (i, b) in bytes.enumerated() {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    if b != UInt8(ascii: "-") { return false }
                } else if !isHexDigit(b) {
                    return false
                }
            }
            return true
        }
    }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    static func hex(_ bytes: [UInt8], uppercase: Bool = false) -> String {
        let digits = uppercase ? upperHexDigits : lowerHexDigits
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = digits[Int(b >> 4)]
                out[2 * i + 1] = digits[Int(b & 0xF)]
            }
            return bytes.count * 2
        }
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)
    private static let lowerHexDigits = Array("0123456789abcdef".utf8)
}
