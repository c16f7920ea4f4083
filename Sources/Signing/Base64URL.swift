/// Base64url without padding (RFC 4648 §5), as used in JWS compact serialization.
public enum Base64URL {
    /// Encodes `bytes` with the URL-safe alphabet and no `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.encode(bytes, alphabet: Base64Codec.urlAlphabet, pad: false)
    }

    /// Decodes base64url text; padding is optional. Returns nil for characters outside the URL-safe
    /// alphabet or an impossible length.
    public static func decode(_ s: String) -> [UInt8]? {
        Base64Codec.decode(s.utf8, url: true)
    }
}

/// Standard base64 (RFC 4648 §4), for PEM bodies; internal.
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.encode(bytes, alphabet: Base64Codec.standardAlphabet, pad: true)
    }

    static func decode(_ s: String) -> [UInt8]? { Base64Codec.decode(s.utf8, url: false) }
}

// MARK: - Codec

enum Base64Codec {
    static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)])
            out.append(alphabet[Int(v & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            if pad { out.append(contentsOf: [0x3D, 0x3D]) }
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(alphabet[Int(v >> 6 & 63)])
            if pad { out.append(0x3D) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 6-bit value of an alphabet byte, or nil.
    @inline(__always)
    static func value(_ c: UInt8, url: Bool) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "-") where url, UInt8(ascii: "+") where !url: return 62
        case UInt8(ascii: "_") where url, UInt8(ascii: "/") where !url: return 63
        default: return nil
        }
    }

    static func decode<C: Collection>(_ text: C, url: Bool) -> [UInt8]? where C.Element == UInt8 {
        // Strip trailing padding (at most two), then decode the rest strictly.
        var end = text.endIndex
        var padding = 0
        while end > text.startIndex {
            let prev = text.index(end, offsetBy: -1)
            guard text[prev] == 0x3D else { break }
            padding += 1
            end = prev
        }
        let body = text[text.startIndex..<end]
        let n = body.count
        if padding > 2 || n % 4 == 1 { return nil }
        if padding > 0 && (n + padding) % 4 != 0 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(n * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        for c in body {
            guard let v = value(c, url: url) else { return nil }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                acc &= (1 << UInt32(bits)) - 1
            }
        }
        return out
    }
}
