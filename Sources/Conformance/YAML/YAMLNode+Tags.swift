// MARK: - Explicit tags (the core schema's, checked against the value they tag)

extension YAMLNode {
    static let tagPrefix = "tag:yaml.org,2002:"

    /// The tags a file may write: the core schema's.
    static let coreTags: Set<String> = Set(
        ["str", "int", "float", "bool", "null", "map", "seq"].map { tagPrefix + $0 })

    /// The short form of the node's tag as written (`!!int`), if it has one.
    var shortTag: String? {
        guard let tag else { return nil }
        return tag.hasPrefix(Self.tagPrefix) ? "!!" + tag.dropFirst(Self.tagPrefix.count) : tag
    }

    /// Why the node's explicit tag contradicts its value (`!!int user-a`, `!!map [1]`), or nil when
    /// it has no tag or the tag fits. A tag states what the author meant; one the value does not
    /// fit is a mistake to report, not a hint to ignore.
    var tagContradiction: String? {
        guard let tag, let written = shortTag else { return nil }
        let expected: String
        switch content {
        case .mapping:
            if tag == Self.tagPrefix + "map" { return nil }
            expected = "a mapping"
        case .sequence:
            if tag == Self.tagPrefix + "seq" { return nil }
            expected = "a sequence"
        case .scalar(let text, _):
            if Self.scalar(text, fits: tag) { return nil }
            expected = "'\(DiagnosticText.short(text))'"
        }
        return "the tag \(written) does not fit \(expected) (\(Self.meaning(of: tag))); fix the value or remove the tag"
    }

    /// Whether scalar `text` is a value of `tag`.
    static func scalar(_ text: String, fits tag: String) -> Bool {
        switch tag.dropFirst(tagPrefix.count) {
        case "str": return true
        case "int": return integerLiteral(text) != nil
        case "float": return jsonNumberLiteral(text) != nil
        case "bool": return boolLiteral(text) != nil
        case "null": return isNullLiteral(text)
        default: return false
        }
    }

    /// What a value of `tag` looks like, for messages.
    static func meaning(of tag: String) -> String {
        switch tag.dropFirst(tagPrefix.count) {
        case "str": return "!!str tags text"
        case "int": return "!!int tags a whole number such as 42"
        case "float": return "!!float tags a number such as 1.5"
        case "bool": return "!!bool tags true or false"
        case "null": return "!!null tags null, ~ or nothing"
        case "map": return "!!map tags a mapping"
        case "seq": return "!!seq tags a list"
        default: return "an unknown tag"
        }
    }

    static func isNullLiteral(_ text: String) -> Bool {
        ["", "~", "null", "Null", "NULL"].contains(text)
    }

    static func boolLiteral(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The JSON literal of a whole number (no fraction, no exponent), or nil.
    static func integerLiteral(_ text: String) -> String? {
        guard let literal = jsonNumberLiteral(text), !literal.contains(where: { ".eE".contains($0) }) else {
            return nil
        }
        return literal
    }
}
