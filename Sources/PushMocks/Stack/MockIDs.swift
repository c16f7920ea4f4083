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
        // From a digit table, in five runs of fixed length: it runs for every APNs answer, and a loop
        // over the 32 digits with a branch for each dash and each digit cost about 2% of the mock's CPU.
        let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            let table = digits.utf8Start
            let p = out.baseAddress!
            writeHex(high &>> 32, count: 8, to: p, table: table)
            p[8] = UInt8(ascii: "-")
            writeHex(high &>> 16, count: 4, to: p + 9, table: table)
            p[13] = UInt8(ascii: "-")
            writeHex(high, count: 4, to: p + 14, table: table)
            p[18] = UInt8(ascii: "-")
            writeHex(low &>> 48, count: 4, to: p + 19, table: table)
            p[23] = UInt8(ascii: "-")
            writeHex(low, count: 12, to: p + 24, table: table)
            return 36
        }
    }

    /// Writes the low `count` hexadecimal digits of `word`, most significant first.
    @inline(__always)
    private static func writeHex(
        _ word: UInt64, count: Int, to out: UnsafeMutablePointer<UInt8>, table: UnsafePointer<UInt8>
    ) {
        var word = word
        for i in stride(from: count - 1, through: 0, by: -1) {
            out[i] = table[Int(truncatingIfNeeded: word & 0xF)]
            word &>>= 4
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
