/// An ordered list of header fields as they travelled on the wire.
///
/// Names are stored lowercased (HTTP/2 requires it, and HTTP/1.1 names are case-insensitive);
/// repeated fields keep every occurrence so that mocks can reject duplicate headers.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields, in arrival order, names lowercased.
    public private(set) var fields: [(name: String, value: String)]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: Self.lowercase($0.0), value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of the named field, or nil.
    public subscript(name: String) -> String? {
        let key = Self.lowercase(name)
        return fields.first { $0.name == key }?.value
    }

    /// Every value of the named field, in arrival order.
    public func values(_ name: String) -> [String] {
        let key = Self.lowercase(name)
        return fields.filter { $0.name == key }.map(\.value)
    }

    /// Appends a field, keeping any earlier one of the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((Self.lowercase(name), value)) }

    /// Appends a field whose name is known to be lowercase already (HTTP/2 requires it), without converting.
    public mutating func addLowercased(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field of that name with one value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of that name.
    public mutating func remove(_ name: String) {
        let key = Self.lowercase(name)
        fields.removeAll { $0.name == key }
    }

    /// Makes room for `n` fields.
    mutating func reserveCapacity(_ n: Int) { fields.reserveCapacity(n) }

    /// `name.lowercased()`, without making a new string when the name is lower-case ASCII already
    /// (as HTTP/2 names and the names code asks for are).
    static func lowercase(_ name: String) -> String {
        var copy = name
        let isLower = copy.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) } }
        return isLower ? name : name.lowercased()
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
