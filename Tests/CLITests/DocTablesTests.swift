import Foundation
import PushMocks
import TestSupport
import Testing

@testable import RingcheckCLI

/// The tables of docs/ say what the code does: each profile page's requirements table is its suite's
/// `requirements.yaml` (IDs and levels), its defect table the mutation matrix that real runs check and the
/// CLI's own list of switches, the mocks page's host names the names the mocks serve, each command's option
/// table that command's options, and the exit-code table the codes `ringcheck help` lists.
@Suite struct DocTablesTests {
    /// Profile → its page and mutation matrix (exit 1 or not, the requirements that fail).
    static let profiles:
        [(name: String, page: String, matrix: [(defect: String, exitsOne: Bool, requirements: Set<String>)])] = [
            (
                "callx", "docs/profiles/callx.md",
                RunMutationMatrixTests.matrix.map { ($0.defect, $0.mustBreaking, Set($0.requirements)) }
            ),
            (
                "dialstack", "docs/profiles/dialstack.md",
                DialStackMutationMatrixTests.entries.map { ($0.defect, $0.exitsOne, $0.requirements) }
            ),
            (
                "push-service", "docs/profiles/push-service.md",
                PushServiceMutationMatrixTests.entries.map { ($0.defect, $0.exitsOne, $0.requirements) }
            ),
            (
                "onesignal", "docs/profiles/onesignal.md",
                OneSignalMutationMatrixTests.entries.map { ($0.defect, $0.exitsOne, $0.requirements) }
            ),
        ]

    /// `CALLX-APNS-5`-shaped IDs in `text`.
    static func requirementIDs(in text: String) -> [String] {
        MarkdownDocument.matches(of: "[A-Z]+-[A-Z0-9]+-[0-9]+", in: text)
    }

    /// The text between the first pair of backticks of `cell`, or the cell.
    static func code(_ cell: String) -> String {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : cell
    }

    /// `(id, level)` of every requirement of `suites/<profile>/requirements.yaml`, in file order.
    static func suiteRequirements(_ profile: String) throws -> [(id: String, level: String)] {
        let yaml = try String(
            contentsOfFile: TargetCommandTests.repositoryRoot + "/suites/\(profile)/requirements.yaml", encoding: .utf8)
        var found: [(String, String)] = []
        var id: String?
        for line in yaml.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- id: ") {
                id = String(trimmed.dropFirst(6))
            } else if trimmed.hasPrefix("level: "), let current = id {
                found.append((current, String(trimmed.dropFirst(7))))
                id = nil
            }
        }
        return found
    }

    /// The `(id, level)` rows of a page's requirements table.
    static func documentedRequirements(_ page: MarkdownDocument) -> [(id: String, level: String)] {
        page.tableRows(firstHeader: "requirement").compactMap { $0.count >= 2 ? ($0[0], $0[1]) : nil }
    }

    /// A page's defect table: name → (exit code, the requirement IDs of its requirements cell).
    static func documentedDefects(_ page: MarkdownDocument) -> [String: (exit: Int?, requirements: Set<String>)] {
        var rows: [String: (Int?, Set<String>)] = [:]
        for cells in page.tableRows(firstHeader: "defect") where cells.count >= 3 {
            let exitCell = cells[cells.count - 2]
            rows[code(cells[0])] = (Int(exitCell.prefix(while: { $0.isNumber })), Set(requirementIDs(in: cells.last!)))
        }
        return rows
    }

    @Test(arguments: ["callx", "dialstack", "push-service", "onesignal"])
    func eachRequirementsTableIsItsSuite(profile: String) throws {
        let page = try MarkdownDocument("docs/profiles/\(profile).md")
        let documented = Self.documentedRequirements(page)
        let suite = try Self.suiteRequirements(profile)
        #expect(!suite.isEmpty)
        #expect(
            documented.map { "\($0.id) \($0.level)" } == suite.map { "\($0.id) \($0.level)" },
            "\(page.path)'s requirements table differs from suites/\(profile)/requirements.yaml")
    }

    @Test(arguments: 0..<4)
    func eachDefectTableIsTheMutationMatrixThatRealRunsCheck(index: Int) throws {
        let (profile, path, matrix) = Self.profiles[index]
        let documented = Self.documentedDefects(try MarkdownDocument(path))
        #expect(Set(documented.keys) == Set(matrix.map(\.defect)), "\(path): defects differ from \(profile)'s matrix")
        for entry in matrix {
            guard let row = documented[entry.defect] else { continue }
            #expect(row.exit == (entry.exitsOne ? 1 : 0), "\(path): \(entry.defect) exits \(entry.exitsOne ? 1 : 0)")
            #expect(
                row.requirements == entry.requirements, "\(path): \(entry.defect) fails \(entry.requirements.sorted())")
        }
    }

    @Test(arguments: ["callx", "dialstack", "push-service", "onesignal"])
    func eachDefectTableNamesExactlyTheCLIsSwitches(profile: String) async throws {
        let documented = Set(Self.documentedDefects(try MarkdownDocument("docs/profiles/\(profile).md")).keys)
        let served = try await Self.defectSwitches(profile: profile)
        #expect(!served.isEmpty)
        #expect(documented == served, "docs/profiles/\(profile).md: the CLI has \(served.sorted())")
    }

    /// The defect switches `ringcheck run --profile P --reference-defect` accepts, as its usage error names them.
    static func defectSwitches(profile: String) async throws -> Set<String> {
        let r = try await RingcheckBinary.run(["run", "--profile", profile, "--reference-defect", "no-such-defect"])
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        return Set(MarkdownDocument.matches(of: "[a-z0-9]+(-[a-z0-9]+)+", in: Self.defectList(r.stderr)))
    }

    /// The part of an unknown-defect error that lists the known switches.
    static func defectList(_ stderr: String) -> String {
        guard let range = stderr.range(of: "the defects are: ") else { return "" }
        return String(stderr[range.upperBound...].prefix(while: { $0 != "\n" }))
    }

    @Test func theHostNameTableIsWhatTheMocksServe() async throws {
        let page = try MarkdownDocument("docs/mocks-and-control-api.md")
        let rows = page.tableRows(firstHeader: "real host name")
        let documented = rows.map { row in
            (Self.code(row[0]), MarkdownDocument.matches(of: "[0-9]+", in: row.last!).compactMap(Int.init))
        }
        let served = ImpersonatedHost.allCases.map { ($0.name, $0.ports) }
        #expect(documented.map(\.0) == served.map(\.0), "the mocks serve \(served.map(\.0))")
        #expect(documented.map(\.1) == served.map(\.1), "ports: the mocks serve \(served)")
        // The /etc/hosts line names all of them, in the order `ringcheck mocks` prints them.
        let hostsLines = page.fencedBlocks(language: "sh").flatMap { $0.split(separator: "\n") }
            .filter { $0.hasPrefix("127.0.0.1 ") }
        #expect(hostsLines.map(String.init) == ["127.0.0.1 " + ImpersonatedHost.allNames])
        // And `ringcheck mocks --help` names each one.
        let help = try await RingcheckBinary.run(["mocks", "--help"])
        let flowing = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (name, _) in served { #expect(flowing.contains(name), "mocks --help does not name \(name)") }
    }

    @Test func eachCommandHasASectionWhoseOptionTablesAreItsOptions() throws {
        let page = try MarkdownDocument("docs/commands.md")
        for command in Ringcheck.commands {
            let name = command.configuration.name
            let heading = name == "report" ? "`ringcheck report merge`" : "`ringcheck \(name)`"
            guard let section = page.section(heading) else {
                Issue.record("docs/commands.md has no section \(heading)")
                continue
            }
            let documented = Set(
                section.tableRows(firstHeader: "option").flatMap {
                    MarkdownDocument.matches(of: "--[a-z][a-z0-9-]*", in: $0[0])
                })
            let declared = Set(command.configuration.options.map { "--" + $0.name })
            #expect(
                documented == declared,
                "\(heading): undocumented \(declared.subtracting(documented).sorted()), not options \(documented.subtracting(declared).sorted())"
            )
        }
    }

    @Test(arguments: [
        ("docs/mocks-and-control-api.md", "mocks"), ("docs/profiles/callx.md", "serve-reference"),
    ])
    func otherPagesOptionTablesNameOnlyTheCommandsOptions(page: String, command: String) throws {
        let documented = try MarkdownDocument(page).tableRows(firstHeader: "option").flatMap {
            MarkdownDocument.matches(of: "--[a-z][a-z0-9-]*", in: $0[0])
        }
        let declared = try #require(Ringcheck.commands.first { $0.configuration.name == command }).configuration
            .options.map { "--" + $0.name }
        #expect(!documented.isEmpty)
        #expect(
            Set(documented).isSubset(of: Set(declared)),
            "\(page): \(command) has no \(Set(documented).subtracting(declared))")
    }

    @Test func theExitCodeTableIsTheOneHelpPrints() throws {
        let page = try MarkdownDocument("docs/exit-codes-and-reports.md")
        let documented = page.tableRows(firstHeader: "exit").map { $0[0] }
        #expect(documented == ExitCode.documented.map(\.codes))
    }

    @Test func theReaderFindsTablesSectionsAndBlocks() {
        let page = MarkdownDocument(
            path: "t.md",
            text: """
                # T
                ## A
                | defect | exit | x |
                |---|---|---|
                | `one` | 0 (SHOULD only) | A-B-1, A-B-2 \\| not C-D-3 |
                ```sh
                | defect | in a block |
                ```
                ## B
                text
                """)
        #expect(page.headings(level: 2) == ["A", "B"])
        #expect(page.section("A")?.text.contains("text") == false)
        let rows = page.tableRows(firstHeader: "defect")
        #expect(rows == [["`one`", "0 (SHOULD only)", "A-B-1, A-B-2 | not C-D-3"]])
        #expect(Self.documentedDefects(page)["one"]?.exit == 0)
        #expect(page.fencedBlocks(language: "sh") == ["| defect | in a block |\n"])
    }
}
