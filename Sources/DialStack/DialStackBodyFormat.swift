import Conformance
import JSON

/// How a webhook body's JSON is written. Every format is valid JSON that parses to the same event; only the bytes
/// differ, so a backend that verifies the signature over re-serialized JSON instead of the raw body fails on some.
public enum DialStackBodyFormat: String, Sendable, CaseIterable, Equatable {
    /// No whitespace, keys in the seed's order, non-ASCII as raw UTF-8 (what `JSON.stringify` writes).
    case compact
    /// Keys in reverse order at every level.
    case reordered
    /// Spaces around colons and commas, tabs, CRLF line breaks and a trailing newline.
    case spaced
    /// Non-ASCII characters as `\u00e9`-style escapes (surrogate pairs beyond the BMP), `/` as `\/`.
    case escaped

    /// `event` written in this format, as UTF-8 bytes.
    public func body(_ event: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(event, into: &out, depth: 0)
        if self == .spaced { out.append(contentsOf: "\r\n".utf8) }
        return out
    }

    // MARK: Writing

    private func write(_ value: JSONValue, into out: inout [UInt8], depth: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { separator(&out) }
                write(item, into: &out, depth: depth + 1)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let ordered = self == .reordered ? Array(members.reversed()) : members
            for (i, member) in ordered.enumerated() {
                if i > 0 { separator(&out) }
                if self == .spaced { lineBreak(&out, depth: depth + 1) }
                writeString(member.key, into: &out)
                out.append(contentsOf: self == .spaced ? Array(" :  ".utf8) : [UInt8(ascii: ":")])
                write(member.value, into: &out, depth: depth + 1)
            }
            if self == .spaced && !members.isEmpty { lineBreak(&out, depth: depth) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private func lineBreak(_ out: inout [UInt8], depth: Int) {
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: repeatElement(0x09, count: depth))
    }

    private func separator(_ out: inout [UInt8]) {
        out.append(contentsOf: self == .spaced ? Array(" ,".utf8) : [UInt8(ascii: ",")])
    }

    private func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out.append(contentsOf: #"\""#.utf8)
            case 0x5C: out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20: escape(UInt16(scalar.value), into: &out)
            case 0x2F where self == .escaped: out.append(contentsOf: #"\/"#.utf8)
            case 0x80... where self == .escaped:
                for unit in String(scalar).utf16 { escape(unit, into: &out) }
            default: out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private func escape(_ unit: UInt16, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: #"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(unit >> UInt16(shift)) & 0xF]) }
    }
}
