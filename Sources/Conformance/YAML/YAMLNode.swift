import JSON

/// A position in a YAML file, 1-based, as editors show it.
public struct YAMLMark: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// How a scalar was written; quoting decides whether `1` is a number or a string.
public enum YAMLScalarStyle: String, Sendable, Hashable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded

    /// True for every style except plain: the text is a string whatever it looks like.
    public var isQuoted: Bool { self != .plain }
}

/// One node of a parsed YAML document, with the position where it starts.
public struct YAMLNode: Sendable, Equatable {
    /// What the node holds.
    public indirect enum Content: Sendable, Equatable {
        case scalar(String, YAMLScalarStyle)
        case sequence([YAMLNode])
        /// Entries in document order (keys are unique: the parser rejects duplicates).
        case mapping([YAMLMapEntry])
    }

    public var content: Content
    /// Where the node starts.
    public var mark: YAMLMark
    /// The resolved tag when one was written explicitly (`!!str` → `tag:yaml.org,2002:str`).
    public var tag: String?

    public init(_ content: Content, mark: YAMLMark, tag: String? = nil) {
        self.content = content
        self.mark = mark
        self.tag = tag
    }
}

/// One `key: value` entry of a mapping; the key is always a scalar.
public struct YAMLMapEntry: Sendable, Equatable {
    public var key: String
    public var keyMark: YAMLMark
    public var value: YAMLNode

    public init(key: String, keyMark: YAMLMark, value: YAMLNode) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
    }
}

// MARK: - Reading

extension YAMLNode {
    /// The entries when the node is a mapping.
    public var entries: [YAMLMapEntry]? {
        if case .mapping(let e) = content { return e }
        return nil
    }

    /// The items when the node is a sequence.
    public var items: [YAMLNode]? {
        if case .sequence(let i) = content { return i }
        return nil
    }

    /// The text of a scalar node (whatever it resolves to).
    public var scalarText: String? {
        if case .scalar(let s, _) = content { return s }
        return nil
    }

    /// The entry named `key` of a mapping.
    public subscript(key: String) -> YAMLNode? {
        entries?.first { $0.key == key }?.value
    }

    /// A short name of the node's kind for error messages: `mapping`, `sequence`, or the JSON type of a scalar.
    public var kindName: String {
        switch content {
        case .mapping: return "mapping"
        case .sequence: return "sequence"
        case .scalar: return json.typeName
        }
    }
}
