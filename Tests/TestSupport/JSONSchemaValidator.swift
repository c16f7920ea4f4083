import Foundation
import JSON

/// A JSON Schema (2020-12) validator for the keywords ringcheck's own schemas use: `type`, `enum`, `const`,
/// `properties`, `required`, `additionalProperties` (a boolean), `items`, `minimum`, `minLength`,
/// `pattern`, and `$ref` to `#/$defs/NAME`. A schema using any other keyword is rejected, so a keyword
/// this validator would silently ignore cannot slip into the schema.
public struct JSONSchemaValidator: Sendable {
    public let schema: JSONValue
    static let known: Set<String> = [
        "$schema", "$id", "title", "description", "$defs", "type", "enum", "const", "properties", "required",
        "additionalProperties", "items", "minimum", "minLength", "pattern", "$ref",
    ]

    public init(schema: JSONValue) throws {
        self.schema = schema
        try Self.checkKeywords(schema, at: "#")
    }

    /// The schema in file `path`.
    public init(file path: String) throws {
        try self.init(schema: try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path)))))
    }

    /// Every violation as `path: what`; empty when `value` conforms.
    public func violations(of value: JSONValue) -> [String] {
        var out: [String] = []
        check(value, against: schema, at: "$", into: &out)
        return out
    }

    static func checkKeywords(_ schema: JSONValue, at path: String) throws {
        guard let members = schema.objectValue else { return }
        for (key, value) in members {
            guard known.contains(key) else {
                throw SchemaError(message: "\(path): keyword '\(key)' is not supported by this validator")
            }
            switch key {
            case "properties", "$defs":
                for (name, sub) in value.objectValue ?? [] { try checkKeywords(sub, at: "\(path)/\(key)/\(name)") }
            case "items": try checkKeywords(value, at: "\(path)/items")
            default: break
            }
        }
    }

    func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/$defs/") else { return nil }
        return schema["$defs"]?[String(ref.dropFirst("#/$defs/".count))]
    }

    func check(_ value: JSONValue, against s: JSONValue, at path: String, into out: inout [String]) {
        if let ref = s["$ref"]?.stringValue {
            guard let target = resolve(ref) else {
                out.append("\(path): unresolvable $ref \(ref)")
                return
            }
            check(value, against: target, at: path, into: &out)
        }
        if let type = s["type"] {
            let types = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            guard types.contains(where: { Self.has(value, type: $0) }) else {
                out.append("\(path): is \(value.typeName), not \(types.joined(separator: " or "))")
                return
            }
        }
        if let allowed = s["enum"]?.arrayValue, !allowed.contains(where: { Self.same($0, value) }) {
            out.append("\(path): \(value.serialized()) is not one of \(JSONValue.array(allowed).serialized())")
        }
        if let constant = s["const"], !Self.same(constant, value) {
            out.append("\(path): \(value.serialized()) is not \(constant.serialized())")
        }
        if let minimum = s["minimum"]?.doubleValue, let n = value.doubleValue, n < minimum {
            out.append("\(path): \(n) is below the minimum \(minimum)")
        }
        if let string = value.stringValue {
            if let min = s["minLength"]?.intValue, string.count < min {
                out.append("\(path): \"\(string)\" is shorter than \(min)")
            }
            if let pattern = s["pattern"]?.stringValue {
                if string.range(of: pattern, options: .regularExpression) == nil {
                    out.append("\(path): \"\(string)\" does not match \(pattern)")
                }
            }
        }
        if let members = value.objectValue {
            let properties = s["properties"]?.objectValue ?? []
            for name in s["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            where !members.contains(where: { $0.key == name }) {
                out.append("\(path): required member '\(name)' is missing")
            }
            for (key, member) in members {
                if let sub = properties.first(where: { $0.key == key })?.value {
                    check(member, against: sub, at: "\(path).\(key)", into: &out)
                } else if s["additionalProperties"]?.boolValue == false {
                    out.append("\(path): member '\(key)' is not in the schema")
                }
            }
        }
        if let items = s["items"], let elements = value.arrayValue {
            for (i, element) in elements.enumerated() {
                check(element, against: items, at: "\(path)[\(i)]", into: &out)
            }
        }
    }

    static func has(_ value: JSONValue, type: String) -> Bool {
        switch type {
        case "integer": return value.isIntegerLiteral || (value.doubleValue.map { $0 == $0.rounded() } ?? false)
        case "number": return value.typeName == "number"
        default: return value.typeName == type
        }
    }

    /// Equal as JSON values (numbers by value: `1` and `1.0` are the same).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue, a.typeName == "number", b.typeName == "number" {
            return x == y
        }
        return a == b
    }
}

/// A schema this validator cannot apply.
public struct SchemaError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
