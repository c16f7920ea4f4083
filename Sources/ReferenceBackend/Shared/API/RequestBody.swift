import JSON

/// Typed reads of a JSON request body that refuse bad input with a 400 naming the field.
struct RequestBody {
    let json: JSONValue

    init(_ json: JSONValue) { self.json = json }

    /// A required string of 1…`maxBytes` UTF-8 bytes.
    func string(_ name: String, maxBytes: Int = 256) throws(APIError) -> String {
        guard let value = try optionalString(name, maxBytes: maxBytes) else {
            throw .badRequest("\(name) is required: a string of 1–\(maxBytes) bytes")
        }
        return value
    }

    /// An optional string of 1…`maxBytes` UTF-8 bytes (null and absent are the same).
    func optionalString(_ name: String, maxBytes: Int = 256) throws(APIError) -> String? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= maxBytes else {
            throw .badRequest("\(name) must be a string of 1–\(maxBytes) bytes")
        }
        return text
    }

    /// An optional boolean.
    func optionalBool(_ name: String) throws(APIError) -> Bool? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .badRequest("\(name) must be true or false") }
        return flag
    }

    /// An optional integer within `range`.
    func optionalInt(_ name: String, in range: ClosedRange<Int64>) throws(APIError) -> Int64? {
        guard let value = json[name], !value.isNull else { return nil }
        guard value.isIntegerLiteral, let n = value.int64Value, range.contains(n) else {
            throw .badRequest("\(name) must be an integer in \(range.lowerBound)…\(range.upperBound)")
        }
        return n
    }

    /// An optional revision: a canonical decimal string (a JSON integer is accepted too).
    func optionalRevision(_ name: String) throws(APIError) -> Int64? {
        guard let value = json[name], !value.isNull else { return nil }
        if let text = value.stringValue, let revision = Int64(text), revision >= 0, String(revision) == text {
            return revision
        }
        if value.isIntegerLiteral, let revision = value.int64Value { return revision }
        throw .badRequest("\(name) must be a revision as a decimal string, e.g. \"1\"")
    }
}

/// Checks an ID taken from a path or body: 1–128 bytes of letters, digits and `-_.:`.
func validateIdentifier(_ value: String, field: String) throws(APIError) {
    let allowed = value.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: ":"):
            return true
        default: return false
        }
    }
    guard !value.isEmpty, value.utf8.count <= 128, allowed else {
        throw .badRequest("\(field) must be 1–128 characters of letters, digits and -_.:")
    }
}
