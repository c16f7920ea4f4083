/// Builds the tree from events with an explicit stack (no recursion, so deep input cannot
/// exhaust the thread's stack).
///
/// Linear in the input: each open collection's children are appended in place to the frame at
/// the top of the stack (never copied out and back, which made a 40,000-item list quadratic),
/// and duplicate keys are found through a per-mapping dictionary instead of a scan of the
/// entries read so far (which made a 20,000-key mapping quadratic).
struct YAMLTreeBuilder {
    private struct Frame {
        let isMapping: Bool
        let mark: YAMLMark
        let tag: String?
        var items: [YAMLNode] = []
        var entries: [YAMLMapEntry] = []
        /// Where each key of the mapping was first written.
        var keyMarks: [String: YAMLMark] = [:]
        var pendingKey: (String, YAMLMark)?
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
            throw error(mark, "aliases (*\(DiagnosticText.short(anchor))) are not supported; repeat the value instead")
        case .scalar(let text, let style, let anchor, let tag, let mark):
            let tag = tag == "!" ? nil : tag
            try check(anchor: anchor, tag: tag, mark: mark)
            let node = YAMLNode(.scalar(text, style), mark: mark, tag: tag)
            if let problem = node.tagContradiction { throw error(mark, fieldPrefix() + problem) }
            try add(node)
        case .sequenceStart(let anchor, let tag, let mark):
            let tag = tag == "!" ? nil : tag
            try check(anchor: anchor, tag: tag, mark: mark)
            try push(Frame(isMapping: false, mark: mark, tag: tag), mark: mark)
        case .mappingStart(let anchor, let tag, let mark):
            let tag = tag == "!" ? nil : tag
            try check(anchor: anchor, tag: tag, mark: mark)
            try push(Frame(isMapping: true, mark: mark, tag: tag), mark: mark)
        case .sequenceEnd, .mappingEnd:
            guard let frame = stack.popLast() else {
                throw error(YAMLMark(line: 1, column: 1), "unbalanced collection end")
            }
            let node =
                frame.isMapping
                ? YAMLNode(.mapping(frame.entries), mark: frame.mark, tag: frame.tag)
                : YAMLNode(.sequence(frame.items), mark: frame.mark, tag: frame.tag)
            if let problem = node.tagContradiction { throw error(frame.mark, fieldPrefix() + problem) }
            try add(node)
        }
        return false
    }

    private mutating func push(_ frame: Frame, mark: YAMLMark) throws(YAMLError) {
        if stack.count >= maxDepth { throw error(mark, "collections nest deeper than \(maxDepth) levels") }
        stack.append(frame)
    }

    private func check(anchor: String?, tag: String?, mark: YAMLMark) throws(YAMLError) {
        if let anchor {
            throw error(
                mark, "anchors (&\(DiagnosticText.short(anchor))) are not supported; repeat the value instead")
        }
        if let tag, !YAMLNode.coreTags.contains(tag) {
            throw error(
                mark, "tag '\(DiagnosticText.short(tag))' is not supported (only the core schema's !!str, !!int, … are)"
            )
        }
    }

    private mutating func add(_ node: YAMLNode) throws(YAMLError) {
        let top = stack.count - 1
        guard top >= 0 else {
            root = node
            return
        }
        if !stack[top].isMapping {
            stack[top].items.append(node)
        } else if let (key, keyMark) = stack[top].pendingKey {
            stack[top].entries.append(YAMLMapEntry(key: key, keyMark: keyMark, value: node))
            stack[top].pendingKey = nil
        } else {
            guard case .scalar(let key, _) = node.content else {
                throw error(node.mark, "mapping keys must be plain text, not a \(node.kindName)")
            }
            if let first = stack[top].keyMarks[key] {
                throw error(node.mark, "duplicate key '\(DiagnosticText.short(key))' (first defined at \(first))")
            }
            stack[top].keyMarks[key] = node.mark
            stack[top].pendingKey = (key, node.mark)
        }
    }

    /// `users.a.userId: ` for the value being read, so a refusal names its field; "" at the top.
    private func fieldPrefix() -> String {
        var path = ""
        for frame in stack {
            if frame.isMapping {
                guard let (key, _) = frame.pendingKey else { break }
                path += (path.isEmpty ? "" : ".") + DiagnosticText.short(key)
            } else {
                path += "[\(frame.items.count)]"
            }
        }
        return path.isEmpty ? "" : path + ": "
    }

    private func error(_ mark: YAMLMark, _ message: String) -> YAMLError {
        YAMLError(file: file, mark: mark, message: message)
    }
}
