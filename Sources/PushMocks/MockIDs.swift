/// Identifiers the mocks make up: UUIDs (`apns-id`, `apns-unique-id`), access tokens, message IDs.
///
/// `SystemRandomNumberGenerator` reads the OS CSPRNG (`getrandom`), so access tokens are unguessable.
enum MockIDs {
    /// A random (version 4) UUID in upper-case canonical form, as APNs writes them.
    static func uuid() -> String {
        var bytes = randomBytes(16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = self.hex(bytes, uppercase: true)
        let chars = Array(hex)
        var out = ""
        for (i, c) in chars.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append("-") }
            out.append(c)
        }
        return out
    }

    /// True for a canonical UUID string (8-4-4-4-12 hexadecimal digits, any case).
    static func isUUID(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
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

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func alphanumeric(_ count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    static func hex(_ bytes: [UInt8], uppercase: Bool = false) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return out
    }
}
