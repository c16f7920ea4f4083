/// One SQLite value, as bound to a statement parameter or read from a result column.
public enum SQLiteValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The integer, or nil for any other storage class.
    public var int64: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }

    /// The text, or nil for any other storage class.
    public var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }

    /// The blob, or nil for any other storage class.
    public var bytes: [UInt8]? {
        if case .blob(let v) = self { return v }
        return nil
    }

    public var isNull: Bool { self == .null }
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }

    /// A text value, or NULL for nil.
    public static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    /// An integer value, or NULL for nil.
    public static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
    /// An integer value from an `Int`.
    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    /// 1 or 0.
    public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

/// One result row: values by column index, and by column name.
public struct SQLiteRow: Sendable {
    public let columns: [String]
    public let values: [SQLiteValue]

    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// The value of the named column; `.null` when there is no such column.
    public subscript(name: String) -> SQLiteValue {
        guard let i = columns.firstIndex(of: name) else { return .null }
        return values[i]
    }

    public func int64(_ name: String) -> Int64? { self[name].int64 }
    public func string(_ name: String) -> String? { self[name].string }
}
