import Foundation
import TestSupport
import Testing

/// The repository's Markdown explains itself: every relative link in the README, CONTRIBUTING.md and
/// docs/ (its subfolders too) names a file the repository has (and an anchor that file's headings make),
/// and none points outside the clone (`../shared/…` resolved only on the developers' machines).
@Suite(.cpuBound) struct DocLinksTests {
    static let root = TargetCommandTests.repositoryRoot

    /// The Markdown files users and contributors read.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.subpathsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md", "CONTRIBUTING.md", "benchmarks/README.md", "suites/README.md"] + docs.sorted()
    }

    /// `[text](target)` targets of `markdown`, outside fenced code blocks.
    static func linkTargets(_ markdown: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            if inFence { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return targets
    }

    /// GitHub's anchor for a heading: lower-cased, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { c -> Character? in
                if c == " " { return "-" }
                if c.isLetter || c.isNumber || c == "-" || c == "_" { return c }
                return nil
            })
    }

    static func anchors(ofFileAt path: String) throws -> Set<String> {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                anchor(String($0.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)))
            })
    }

    @Test func everyRelativeLinkResolvesInsideTheRepository() throws {
        var broken: [String] = []
        for document in try Self.documents() {
            let path = Self.root + "/" + document
            let folder = (document as NSString).deletingLastPathComponent
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for target in Self.linkTargets(text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0])
                let resolved =
                    file.isEmpty
                    ? document : ((folder as NSString).appendingPathComponent(file) as NSString).standardizingPath
                if resolved.hasPrefix("..") || resolved.hasPrefix("/") {
                    broken.append("\(document): \(target) points outside the repository")
                    continue
                }
                guard FileManager.default.fileExists(atPath: Self.root + "/" + resolved) else {
                    broken.append("\(document): \(target) names no file")
                    continue
                }
                if parts.count == 2, resolved.hasSuffix(".md"),
                    !(try Self.anchors(ofFileAt: Self.root + "/" + resolved)).contains(String(parts[1]))
                {
                    broken.append("\(document): \(target) names no heading of \(resolved)")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func noDocumentNamesTheDevelopersSharedFolder() throws {
        for document in try Self.documents() {
            let text = try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8)
            #expect(!text.contains("../shared/"), "\(document) names ../shared/, which a clone does not have")
        }
    }

    @Test func theDocumentsIncludeTheProfilePages() throws {
        let documents = try Self.documents()
        for profile in ["callx", "dialstack", "push-service", "onesignal"] {
            #expect(documents.contains("docs/profiles/\(profile).md"))
        }
    }

    @Test func theReadmeIsAFirstScreenThatLinksEveryTaskPage() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 250, "README.md has \(lines) lines; the details belong in docs/")
        let linked = Set(Self.linkTargets(readme).map { String($0.split(separator: "#").first ?? "") })
        for page in try Self.documents() where page.hasPrefix("docs/") {
            #expect(linked.contains(page), "README.md does not link \(page)")
        }
    }

    /// The words after `install` up to the next `&&`, `>` or backslash-free line end, without options.
    static func installed(after command: String, in text: String) -> Set<String> {
        var found: Set<String> = []
        for part in text.replacingOccurrences(of: "\\\n", with: " ").components(separatedBy: command).dropFirst() {
            let words = part.prefix { $0 != "\n" }.components(separatedBy: "&&")[0].split(separator: " ")
            found.formUnion(words.prefix { !$0.hasPrefix(">") }.filter { !$0.hasPrefix("-") }.map(String.init))
        }
        return found
    }

    @Test func theReadmeSetUpInstallsWhatCIInstallsAndRunsTheTestsAsCIDoes() throws {
        // The set-up block: the one that runs the tests.
        let readme = try #require(
            try MarkdownDocument("README.md").fencedBlocks(language: "sh").first { $0.contains("swift test") })
        let ci = try String(contentsOfFile: Self.root + "/.ci/run", encoding: .utf8)
        let readmeDebian = Self.installed(after: "apt-get install", in: readme)
        let ciDebian = Self.installed(after: "apt-get install", in: ci)
        #expect(
            !ciDebian.isEmpty && readmeDebian == ciDebian,
            "README: \(readmeDebian.sorted()), .ci/run: \(ciDebian.sorted())")
        let readmePyPI = Self.installed(after: "pip install", in: readme)
        let ciPyPI = Self.installed(after: "pip install", in: ci)
        #expect(!ciPyPI.isEmpty && readmePyPI == ciPyPI, "README: \(readmePyPI.sorted()), .ci/run: \(ciPyPI.sorted())")
        // The README's test command is the one .ci/run runs, options included (the parallelization width
        // is what keeps a CI run's first minute from starving its timing tests).
        let readmeTests = try #require(
            Self.testCommand(after: "RINGCHECK_PYTHON=/opt/ringcheck-venv/bin/python ", in: readme))
        let ciTests = try #require(Self.testCommand(after: "\n", in: ci))
        #expect(ci.contains("export RINGCHECK_PYTHON=/opt/ringcheck-venv/bin/python"))
        #expect(
            readmeTests == ciTests && readmeTests.hasPrefix("swift test"), "README: \(readmeTests), .ci/run: \(ciTests)"
        )
    }

    /// The `swift test …` command that follows `prefix` in `text`, up to the end of its line or a pipe,
    /// without redirections (`2>&1`).
    static func testCommand(after prefix: String, in text: String) -> String? {
        guard let start = text.range(of: prefix + "swift test") else { return nil }
        let rest = text[text.index(start.lowerBound, offsetBy: prefix.count)...]
        let words = rest.prefix { $0 != "\n" && $0 != "|" }.split(separator: " ")
        return words.filter { !$0.contains(">") }.joined(separator: " ")
    }

    @Test func theLinkReaderFindsBrokenLinks() {
        #expect(Self.linkTargets("see [a](x.md#y) and [b](../z)\n```\n[c](in-fence)\n```") == ["x.md#y", "../z"])
        #expect(Self.anchor("How a requirement is levelled") == "how-a-requirement-is-levelled")
        #expect(Self.anchor("The `dialstack` profile") == "the-dialstack-profile")
    }
}
