/// A JSON document as parsed, without loss: numbers keep their literal text (so `1`, `1.0` and
/// `1e0` stay distinguishable, and integers beyond 2^53 stay exact), and objects keep their key
/// order and any duplicate keys. Checks on what a peer sent need exactly this.
public indirect enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    /// A number as its JSON literal text, e.g. `"42"`, `"-0.5"`, `"1e3"`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; duplicate keys are kept.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(Double(n) ?? 0)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }
}

// MARK: - Building values

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONValue.format(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
    public init(nilLiteral: ()) { self = .null }

    /// A number value from an integer.
    public static func int<T: BinaryInteger>(_ v: T) -> JSONValue { .number(String(v)) }
    /// A number value from a double (integral doubles are written without a fraction).
    public static func double(_ v: Double) -> JSONValue { .number(format(v)) }

    static func format(_ v: Double) -> String {
        if abs(v) < 1e15, let i = Int64(exactly: v) { return String(i) }
        return String(v)
    }
}

// MARK: - Reading values

extension JSONValue {
    /// The member named `key` of an object (the first, if repeated), or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` of an array, or nil.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
    /// The number as a Double, for any number literal.
    public var doubleValue: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }
    /// The number as an Int64 when its literal is an integer (no fraction or exponent) that fits.
    public var int64Value: Int64? {
        if case .number(let n) = self { return Int64(n) }
        return nil
    }
    public var intValue: Int? { int64Value.map { Int($0) } }
    /// True when the value is a number written as an integer literal.
    public var isIntegerLiteral: Bool {
        if case .number(let n) = self { return !n.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) }
        return false
    }
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
    public var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let o) = self { return o }
        return nil
    }
    public var isNull: Bool { self == .null }

    /// The JSON type name, as used in error messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// Follows a path such as `callx.revision` or `events.0.type` (numeric parts index arrays).
    public func value(atPath path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") where !part.isEmpty {
            if let i = Int(part), case .array = current {
                current = current?[i]
            } else {
                current = current?[String(part)]
            }
            if current == nil { return nil }
        }
        return current
    }

    /// Returns a copy with `key` set on an object (replacing the first existing member of that name).
    public func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }
}
