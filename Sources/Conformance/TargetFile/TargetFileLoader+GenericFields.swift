import JSON

/// The field decoders every section of a target file uses (the engine's and each profile's): the HTTP
/// methods a request may name, mappings of names to text and to JSON scalars.
extension TargetFileDecoder {
    /// The HTTP methods a target file's request (an operation, a sign-in, an account's creation) may name.
    package static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    /// A mapping of text to text (header names, field paths).
    package mutating func stringMap(_ node: YAMLNode, _ path: String) -> [String: String]? {
        guard let entries = node.entries else {
            d.error(node.mark, path, "expected a mapping of names to text, got \(node.kindName)")
            return nil
        }
        var out: [String: String] = [:]
        for entry in entries {
            if let s = d.string(entry.value, "\(path).\(entry.key)") { out[entry.key] = s }
        }
        return out
    }

    /// A mapping of names to JSON scalars (text, booleans, numbers), each keeping its YAML type.
    package mutating func scalarMap(_ node: YAMLNode, _ path: String) -> [String: JSONValue]? {
        guard let entries = node.entries else {
            d.error(node.mark, path, "expected a mapping of names to values, got \(node.kindName)")
            return nil
        }
        var out: [String: JSONValue] = [:]
        for entry in entries {
            switch entry.value.json {
            case .string, .bool, .number: out[entry.key] = entry.value.json
            default:
                d.error(
                    entry.value.mark, "\(path).\(entry.key)",
                    "expected text, true, false or a number, got \(entry.value.kindName)")
            }
        }
        return out
    }
}
