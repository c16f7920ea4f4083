import Foundation
import JSON

/// Collects the problems of one file while its nodes are read, with the typed readers that report them.
package struct Diagnostics {
    let file: String
    package private(set) var errors: [SuiteError] = []

    init(file: String) { self.file = file }

    /// Records a problem; values the message quotes are cut to a readable length (`DiagnosticText`).
    package mutating func error(_ mark: YAMLMark, _ field: String, _ message: String) {
        errors.append(
            SuiteError(
                file: file, mark: mark, field: DiagnosticText.short(field), message: DiagnosticText.shortened(message)))
    }

    // MARK: - Mappings

    /// The entries of a mapping by key, after reporting unknown fields (with a suggestion) and
    /// missing required ones; nil when the node is not a mapping.
    package mutating func mapping(
        _ node: YAMLNode, _ path: String, known: [String], required: [String] = []
    ) -> [String: YAMLMapEntry]? {
        guard let entries = node.entries else {
            error(
                node.mark, path,
                "expected a mapping with \(Self.list(required.isEmpty ? known : required)), got \(node.kindName)")
            return nil
        }
        var byKey: [String: YAMLMapEntry] = [:]
        for entry in entries {
            if known.contains(entry.key) {
                byKey[entry.key] = entry
            } else {
                error(entry.keyMark, path, "unknown field '\(entry.key)'\(Self.suggestion(entry.key, known))")
            }
        }
        for key in required where byKey[key] == nil {
            error(node.mark, path, "missing required field '\(key)'")
        }
        return byKey
    }

    // MARK: - Scalars

    package mutating func string(_ node: YAMLNode, _ path: String) -> String? {
        guard case .string(let s) = node.json, node.scalarText != nil else {
            error(
                node.mark, path,
                "expected text, got \(node.kindName)\(node.scalarText != nil ? " (quote it to make it text)" : "")")
            return nil
        }
        return s
    }

    package mutating func nonEmptyString(_ node: YAMLNode, _ path: String) -> String? {
        guard let s = string(node, path) else { return nil }
        if s.trimmingCharacters(in: .whitespaces).isEmpty {
            error(node.mark, path, "must not be empty")
            return nil
        }
        return s
    }

    /// The longest label (a target's name, a scenario's title) in characters: it heads console lines
    /// and reports, where a longer one would only bury them.
    static let labelLimit = 200

    /// Non-empty text of at most `labelLimit` characters, for names shown in every report.
    mutating func label(_ node: YAMLNode, _ path: String) -> String? {
        guard let s = nonEmptyString(node, path) else { return nil }
        if s.count > Self.labelLimit {
            error(node.mark, path, "'\(s)' is too long to head a report: write at most \(Self.labelLimit) characters")
            return nil
        }
        return s
    }

    package mutating func int(_ node: YAMLNode, _ path: String, min: Int? = nil) -> Int? {
        guard node.scalarText != nil, let n = node.json.intValue, node.json.isIntegerLiteral else {
            error(node.mark, path, "expected a whole number, got \(node.kindName)")
            return nil
        }
        if let min, n < min {
            error(node.mark, path, "must be at least \(min), got \(n)")
            return nil
        }
        return n
    }

    package mutating func bool(_ node: YAMLNode, _ path: String) -> Bool? {
        guard let b = node.json.boolValue, node.scalarText != nil else {
            error(node.mark, path, "expected true or false, got \(node.kindName)")
            return nil
        }
        return b
    }

    /// One of `allowed`, with a suggestion when the text is close to one.
    package mutating func choice(_ node: YAMLNode, _ path: String, _ allowed: [String]) -> String? {
        guard let s = string(node, path) else { return nil }
        guard allowed.contains(s) else {
            error(node.mark, path, "'\(s)' is not one of \(Self.list(allowed))\(Self.suggestion(s, allowed))")
            return nil
        }
        return s
    }

    /// A list of text items; a single text is accepted as a list of one.
    package mutating func stringList(_ node: YAMLNode, _ path: String) -> [String]? {
        if node.scalarText != nil { return string(node, path).map { [$0] } }
        guard let items = node.items else {
            error(node.mark, path, "expected a list of text, got \(node.kindName)")
            return nil
        }
        var out: [String] = []
        var ok = true
        for (i, item) in items.enumerated() {
            if let s = string(item, "\(path)[\(i)]") { out.append(s) } else { ok = false }
        }
        return ok ? out : nil
    }

    package mutating func duration(_ node: YAMLNode, _ path: String) -> ScenarioDuration? {
        guard let text = node.scalarText, node.json.stringValue != nil || node.json.isIntegerLiteral else {
            error(node.mark, path, "expected a duration such as 500ms or 5s, got \(node.kindName)")
            return nil
        }
        guard let d = ScenarioDuration(text) else {
            error(node.mark, path, "'\(text)' is not a duration (write 500ms, 5s, 1.5s or 2m)")
            return nil
        }
        return d
    }

    // MARK: - Messages

    static func list(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// ` (did you mean 'x'?)` for the closest known name within a small edit distance, else "".
    /// Words longer than `suggestionLimit` get none: no field name is that long, and the distance
    /// table grows with the product of the lengths.
    package static func suggestion(_ word: String, _ known: [String]) -> String {
        guard word.utf8.count <= suggestionLimit else { return "" }
        let scored = known.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, word.count / 3) else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    static let suggestionLimit = 64

    /// Optimal string alignment distance: insertions, deletions, substitutions, and swaps of neighbours.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
