import Signing
import Synchronization

/// Identifiers the mocks make up: UUIDs (`apns-id`, `apns-unique-id`), access tokens, message IDs.
///
/// Randomness comes from `SecureRandom` (OpenSSL's DRBG), so access tokens are unguessable.
enum MockIDs {
    /// A random (version 4) UUID in upper-case canonical form, as APNs writes them.
    static func uuid() -> String { uuid(uppercase: true) }

    /// A random (version 4) UUID in lower-case canonical form.
    static func lowercaseUUID() -> String { uuid(uppercase: false) }

    private static func uuid(uppercase: Bool) -> String {
        var (high, low) = randomPool.withLock { $0.next128() }
        high = high & ~0xF000 | 0x4000  // version 4
        low = low & ~(0xC0 << 56) | (0x80 << 56)  // variant 10
        // Digit by digit from the two words: it runs for every APNs answer.
        return String(unsafeUninitializedCapacity: 36) { out in
            var n = 0
            for k in 0..<32 {
                if k == 8 || k == 12 || k == 16 || k == 20 {
                    out[n] = UInt8(ascii: "-")
                    n &+= 1
                }
                let word = k < 16 ? high : low
                out[n] = hexDigit(UInt8(truncatingIfNeeded: word &>> UInt64(60 &- 4 &* (k & 15))), uppercase: uppercase)
                n &+= 1
            }
            return n
        }
    }

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
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = hexDigit(b >> 4, uppercase: uppercase)
                out[2 * i + 1] = hexDigit(b, uppercase: uppercase)
            }
            return bytes.count * 2
        }
    }

    /// The hexadecimal digit of the low four bits of `nibble`.
    @inline(__always)
    static func hexDigit(_ nibble: UInt8, uppercase: Bool) -> UInt8 {
        let v = nibble & 0xF
        return v < 10 ? UInt8(ascii: "0") &+ v : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) &+ (v &- 10)
    }
}
