extension JSONValue {
    /// Compact JSON text. With `sortedKeys`, object members are written in key order (for stable output).
    public func serialized(sortedKeys: Bool = false, pretty: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, sortedKeys: sortedKeys, pretty: pretty, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact JSON as UTF-8 bytes.
    public func bytes(sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, sortedKeys: sortedKeys, pretty: false, indent: 0)
        return out
    }

    func write(into out: inout [UInt8], sortedKeys: Bool, pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                item.write(into: &out, sortedKeys: sortedKeys, pretty: pretty, indent: indent + 1)
            }
            if pretty && !items.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let ordered = sortedKeys ? members.sorted { $0.key < $1.key } : members
            for (i, member) in ordered.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(into: &out, sortedKeys: sortedKeys, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}
