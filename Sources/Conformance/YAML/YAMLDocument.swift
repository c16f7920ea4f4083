import Foundation

/// Reads one YAML document into a `YAMLNode` tree with positions, from libyaml's event stream.
///
/// Deliberately smaller than YAML: one document per file, scalar keys only, no duplicate keys, no
/// anchors or aliases, and only the core schema's tags. Every refusal is a `YAMLError` naming the
/// file, line and column; malformed input never traps.
public enum YAMLDocument {
    /// How deeply collections may nest before the file is refused.
    public static let maxDepth = 64

    /// Parses `bytes`; `file` names the input in errors.
    public static func parse(_ bytes: [UInt8], file: String = "<input>") throws(YAMLError) -> YAMLNode {
        var builder = YAMLTreeBuilder(file: file, maxDepth: maxDepth)
        let parser = YAMLEventParser(bytes: bytes, file: file)
        while true {
            let event = try parser.next()
            if try builder.consume(event) { break }
        }
        return builder.root ?? YAMLNode(.scalar("", .plain), mark: YAMLMark(line: 1, column: 1))
    }

    /// Parses a string.
    public static func parse(_ text: String, file: String = "<input>") throws(YAMLError) -> YAMLNode {
        try parse(Array(text.utf8), file: file)
    }

    /// Reads and parses the file at `path` (named as given in errors).
    public static func parse(contentsOfFile path: String) throws(YAMLError) -> YAMLNode {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw YAMLError(file: path, mark: YAMLMark(line: 1, column: 1), message: "cannot read the file")
        }
        return try parse([UInt8](data), file: path)
    }
}

/// Builds the tree from events with an explicit stack (no recursion, so deep input cannot
/// exhaust the thread's stack).
struct YAMLTreeBuilder {
    private enum Frame {
        case sequence(mark: YAMLMark, tag: String?, items: [YAMLNode])
        case mapping(mark: YAMLMark, tag: String?, entries: [YAMLMapEntry], pendingKey: (String, YAMLMark)?)
    }

    let file: String
    let maxDepth: Int
    private(set) var root: YAMLNode?
    private var stack: [Frame] = []
    private var documents = 0

    init(file: String, maxDepth: Int) {
        self.file = file
        self.maxDepth = maxDepth
    }

    static let allowedTags: Set<String> = Set(
        ["str", "int", "float", "bool", "null", "map", "seq"].map { YAMLNode.tagPrefix + $0 })

    /// Takes one event; returns true at the end of the stream.
    mutating func consume(_ event: YAMLEvent) throws(YAMLError) -> Bool {
        switch event {
        case .streamStart, .documentEnd:
            return false
        case .streamEnd:
            return true
        case .documentStart(let mark):
            documents += 1
            if documents > 1 {
                throw error(mark, "a file holds one YAML document; a second one starts here (remove the '---')")
            }
        case .alias(let anchor, let mark):
            throw error(mark, "aliases (*\(anchor)) are not supported; repeat the value instead")
        case .scalar(let text, let style, let anchor, let tag, let mark):
            try check(anchor: anchor, tag: tag, mark: mark)
            try add(YAMLNode(.scalar(text, style), mark: mark, tag: tag == "!" ? nil : tag))
        case .sequenceStart(let anchor, let tag, let mark):
            try check(anchor: anchor, tag: tag, mark: mark)
            try push(.sequence(mark: mark, tag: tag, items: []), mark: mark)
        case .mappingStart(let anchor, let tag, let mark):
            try check(anchor: anchor, tag: tag, mark: mark)
            try push(.mapping(mark: mark, tag: tag, entries: [], pendingKey: nil), mark: mark)
        case .sequenceEnd, .mappingEnd:
            guard let frame = stack.popLast() else {
                throw error(YAMLMark(line: 1, column: 1), "unbalanced collection end")
            }
            switch frame {
            case .sequence(let mark, let tag, let items):
                try add(YAMLNode(.sequence(items), mark: mark, tag: tag))
            case .mapping(let mark, let tag, let entries, _):
                try add(YAMLNode(.mapping(entries), mark: mark, tag: tag))
            }
        }
        return false
    }

    private mutating func push(_ frame: Frame, mark: YAMLMark) throws(YAMLError) {
        if stack.count >= maxDepth { throw error(mark, "collections nest deeper than \(maxDepth) levels") }
        stack.append(frame)
    }

    private func check(anchor: String?, tag: String?, mark: YAMLMark) throws(YAMLError) {
        if let anchor {
            throw error(mark, "anchors (&\(anchor)) are not supported; repeat the value instead")
        }
        if let tag, tag != "!", !Self.allowedTags.contains(tag) {
            throw error(mark, "tag '\(tag)' is not supported (only the core schema's !!str, !!int, … are)")
        }
    }

    private mutating func add(_ node: YAMLNode) throws(YAMLError) {
        guard let top = stack.popLast() else {
            root = node
            return
        }
        switch top {
        case .sequence(let mark, let tag, var items):
            items.append(node)
            stack.append(.sequence(mark: mark, tag: tag, items: items))
        case .mapping(let mark, let tag, var entries, let pendingKey):
            if let (key, keyMark) = pendingKey {
                entries.append(YAMLMapEntry(key: key, keyMark: keyMark, value: node))
                stack.append(.mapping(mark: mark, tag: tag, entries: entries, pendingKey: nil))
            } else {
                guard case .scalar(let key, _) = node.content else {
                    throw error(node.mark, "mapping keys must be plain text, not a \(node.kindName)")
                }
                if let first = entries.first(where: { $0.key == key }) {
                    throw error(node.mark, "duplicate key '\(key)' (first defined at \(first.keyMark))")
                }
                stack.append(.mapping(mark: mark, tag: tag, entries: entries, pendingKey: (key, node.mark)))
            }
        }
    }

    private func error(_ mark: YAMLMark, _ message: String) -> YAMLError {
        YAMLError(file: file, mark: mark, message: message)
    }
}
