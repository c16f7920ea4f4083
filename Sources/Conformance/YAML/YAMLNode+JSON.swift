import JSON

// MARK: - Scalar resolution (YAML 1.2 core schema, restricted to what JSON can hold)

extension YAMLNode {
    /// The node as a JSON value. Plain scalars resolve as in YAML 1.2's core schema (`null`, `~`,
    /// `true`, `false`, integers and decimals); quoted and block scalars, and plain text that is
    /// none of those, are strings. An explicit core tag decides the type (`!!str 12` is text, `!!int "12"` a number).
    public var json: JSONValue {
        switch content {
        case .scalar(let text, let style):
            return YAMLNode.resolve(text, style: style, tag: tag)
        case .sequence(let items):
            return .array(items.map(\.json))
        case .mapping(let entries):
            return .object(entries.map { (key: $0.key, value: $0.value.json) })
        }
    }

    static func resolve(_ text: String, style: YAMLScalarStyle, tag: String?) -> JSONValue {
        // An explicit tag decides, whatever the quoting (`!!int "12"` is a number); the tree builder
        // has refused tags the value does not fit, so the fallbacks only serve hand-built nodes.
        switch tag?.dropFirst(tagPrefix.count) {
        case "str"?: return .string(text)
        case "int"?, "float"?: return jsonNumberLiteral(text).map(JSONValue.number) ?? .string(text)
        case "bool"?: return boolLiteral(text).map(JSONValue.bool) ?? .string(text)
        case "null"?: return isNullLiteral(text) ? .null : .string(text)
        default: break
        }
        if style.isQuoted { return .string(text) }
        if isNullLiteral(text) { return .null }
        if let b = boolLiteral(text) { return .bool(b) }
        if let number = jsonNumberLiteral(text) { return .number(number) }
        return .string(text)
    }

    /// The JSON number literal a plain scalar denotes, or nil: decimal integers and decimals with an
    /// optional exponent (a leading `+` is dropped). Hex, octal, `.inf` and `.nan` stay strings,
    /// since JSON cannot carry them losslessly.
    static func jsonNumberLiteral(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        if bytes.first == UInt8(ascii: "+") { bytes.removeFirst() }
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        let intDigits = digits()
        guard intDigits > 0 else { return nil }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return nil }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        guard i == bytes.count else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
