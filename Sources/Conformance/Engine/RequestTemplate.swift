import JSON

/// Fills `{name}` placeholders into the parts of a request (a route, a path, a query, a header, a JSON
/// body) with values: what a target's mapping, a login request and a profile's own operations build
/// their requests with.
///
/// ```swift
/// RequestTemplate.fill("/v1/calls/{callId}", ["callId": "a b"])  // "/v1/calls/a%20b"
/// var used: Set<String> = []
/// RequestTemplate.render(.object([("user", .string("{userId}"))]), ["userId": .string("u1")], used: &used)
/// ```
public enum RequestTemplate {
    /// `template` with `{name}` placeholders replaced by percent-encoded values.
    /// One pass over the template's bytes (load fills a path per request; Foundation's
    /// `replacingOccurrences` per value cost ~4% of its CPU): a `{` whose text up to the next `}` names a
    /// value is replaced, anything else is kept as written. Encoded values hold no `{`, so this is what
    /// replacing each `{name}` in turn gave.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        let bytes = Array(template.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "{"), let close = bytes[(i + 1)...].firstIndex(of: UInt8(ascii: "}")),
                let value = values[String(decoding: bytes[(i + 1)..<close], as: UTF8.self)]
            {
                appendPercentEncoded(value, to: &out)
                i = close + 1
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    public static func percentEncode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendPercentEncoded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text`'s UTF-8 bytes to `out`, percent-encoding all but unreserved ones.
    static func appendPercentEncoded(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
    }

    /// The text of a value as it goes into a path, a query or a header.
    package static func text(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return ""
        default: return v.serialized()
        }
    }

    /// The `{name}` placeholders of `template`, in order.
    public static func placeholders(in template: String) -> [String] {
        var out: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            out.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return out
    }

    /// `template` with its placeholders replaced by text; nil when one has no value.
    package static func interpolate(
        _ template: String, _ values: [String: JSONValue], encode: Bool = false, used: inout Set<String>
    ) -> String? {
        var out = template
        for name in placeholders(in: template) {
            guard let v = values[name] else { return nil }
            used.insert(name)
            let t = text(v)
            out = out.replacingOccurrences(of: "{\(name)}", with: encode ? percentEncode(t) : t)
        }
        return out
    }

    /// A body template with values in; nil when the whole value names a missing placeholder.
    package static func render(_ template: JSONValue, _ values: [String: JSONValue], used: inout Set<String>)
        -> JSONValue?
    {
        switch template {
        case .string(let s):
            let names = placeholders(in: s)
            if names.count == 1, s == "{\(names[0])}" {
                guard let v = values[names[0]] else { return nil }
                used.insert(names[0])
                return v
            }
            return interpolate(s, values, used: &used).map(JSONValue.string)
        case .object(let members):
            return .object(members.compactMap { m in render(m.value, values, used: &used).map { (m.key, $0) } })
        case .array(let items):
            return .array(items.compactMap { render($0, values, used: &used) })
        default:
            return template
        }
    }

    /// A path template's path and its query (after `?`), if it has one.
    package static func splitQuery(_ template: String) -> (String, String?) {
        guard let q = template.firstIndex(of: "?") else { return (template, nil) }
        return (String(template[..<q]), String(template[template.index(after: q)...]))
    }

    /// A path template with every placeholder filled, percent-encoded ("" for one without a value).
    package static func fillPath(_ template: String, _ values: [String: JSONValue], used: inout Set<String>) -> String {
        var out = template
        for name in placeholders(in: template) {
            used.insert(name)
            out = out.replacingOccurrences(of: "{\(name)}", with: percentEncode(values[name].map(text) ?? ""))
        }
        return out
    }

    /// The query's parameters with values in; a parameter whose placeholder has no value is left out.
    package static func fillQuery(_ query: String?, _ values: [String: JSONValue], used: inout Set<String>) -> [String]
    {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").compactMap { part in
            interpolate(String(part), values, encode: true, used: &used)
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
