import JSON

/// How values read in messages.
package enum Describe {
    /// `"text"`, `42`, `true`, `an object`, `absent`.
    package static func value(_ value: JSONValue?) -> String {
        guard let value else { return "absent" }
        switch value {
        case .string(let s): return quoted(s)
        case .number(let n): return n
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A string in quotes, shortened past 80 characters.
    package static func quoted(_ s: String) -> String {
        let shown = s.count > 80 ? String(s.prefix(77)) + "…" : s
        return "\"" + shown + "\""
    }
}
