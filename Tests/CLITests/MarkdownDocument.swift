import Foundation

/// A Markdown page of the repository as the documentation tests read it: its sections, tables and
/// fenced blocks.
struct MarkdownDocument {
    /// The path inside the repository, e.g. `docs/commands.md`.
    var path: String
    var text: String

    /// Reads `path` (inside the repository).
    init(_ path: String) throws {
        self.path = path
        text = try String(contentsOfFile: TargetCommandTests.repositoryRoot + "/" + path, encoding: .utf8)
    }

    /// A page made of `text`, for testing the reader itself.
    init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The part of the page under the heading `heading` (any level), up to the next heading of the same
    /// or a higher level; nil when no heading says that.
    func section(_ heading: String) -> MarkdownDocument? {
        var collected: [Substring] = []
        var level: Int?
        var inFence = false
        for line in lines {
            if line.hasPrefix("```") { inFence.toggle() }
            let hashes = inFence ? 0 : line.prefix(while: { $0 == "#" }).count
            if let open = level {
                if hashes > 0, hashes <= open, line.dropFirst(hashes).hasPrefix(" ") { break }
                collected.append(line)
            } else if hashes > 0, line.dropFirst(hashes).trimmingCharacters(in: .whitespaces) == heading {
                level = hashes
            }
        }
        guard level != nil else { return nil }
        return MarkdownDocument(path: path + " (" + heading + ")", text: collected.joined(separator: "\n"))
    }

    /// The headings of `level` (2 for `##`), in order, outside fenced blocks.
    func headings(level: Int) -> [String] {
        var found: [String] = []
        var inFence = false
        for line in lines {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence, line.hasPrefix(String(repeating: "#", count: level) + " ") {
                found.append(String(line.dropFirst(level + 1)).trimmingCharacters(in: .whitespaces))
            }
        }
        return found
    }

    /// The body rows (cells trimmed) of every table whose header's first cell is `firstHeader`; `\|` in a
    /// cell is a literal bar.
    func tableRows(firstHeader: String) -> [[String]] {
        var rows: [[String]] = []
        var inTable = false
        var inFence = false
        for line in lines {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("|") else {
                inTable = false
                continue
            }
            let cells = Self.cells(line)
            if cells.first == firstHeader {
                inTable = true
            } else if inTable, !cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) {
                rows.append(cells)
            }
        }
        return rows
    }

    /// The cells of one table line.
    static func cells(_ line: Substring) -> [String] {
        let marked = line.replacingOccurrences(of: "\\|", with: "\u{1}")
        var parts = marked.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces)
        }
        if parts.first == "" { parts.removeFirst() }
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The contents of every fenced block of `language` ("" for a block without one), in order.
    func fencedBlocks(language: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        var inOtherBlock = false
        for line in lines {
            if let lines = current {
                if line == "```" {
                    blocks.append(lines.joined(separator: "\n") + "\n")
                    current = nil
                } else {
                    current!.append(line)
                }
            } else if inOtherBlock {
                if line == "```" { inOtherBlock = false }
            } else if line == "```" + language {
                current = []
            } else if line.hasPrefix("```") {
                inOtherBlock = true
            }
        }
        return blocks
    }

    /// Every match of `pattern` (a regular expression) in `text`.
    static func matches(of pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }
}
