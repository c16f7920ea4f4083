import Conformance
import JSON

/// Small checks on values that several rules share.
enum ValueRules {
    /// The largest integer a JSON number carries exactly in every decoder: 2^53 − 1.
    static let maxSafeInteger: Int64 = 9_007_199_254_740_991

    /// `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`: the format of every Callx ID.
    static func isCallxIdentifier(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard !bytes.isEmpty, bytes.count <= 128, isAlnum(bytes[0]) else { return false }
        return bytes.dropFirst().allSatisfy { isAlnum($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x3A || $0 == 0x2D }
    }

    static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// A canonical decimal: `0` or digits without a leading zero, no sign.
    static func isCanonicalDecimal(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        return bytes.count == 1 || bytes[0] != 0x30
    }

    /// An integer literal within 0…2^53−1, as Int64; nil otherwise.
    static func millis(_ value: JSONValue?) -> Int64? {
        guard let value, value.isIntegerLiteral, case .number(let text) = value, let v = Int64(text),
            v >= 0, v <= maxSafeInteger
        else { return nil }
        return v
    }

    /// Compares canonical decimals of any length.
    static func decimalLess(_ a: String, _ b: String) -> Bool {
        a.utf8.count != b.utf8.count ? a.utf8.count < b.utf8.count : a < b
    }

    /// Floor and ceiling division of a millisecond span into seconds, correct for negative spans.
    static func floorSeconds(_ ms: Int64) -> Int64 { ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000) }
    static func ceilSeconds(_ ms: Int64) -> Int64 { ms >= 0 ? (ms + 999) / 1000 : -((-ms) / 1000) }
}
