import AllProfiles
import Conformance
import Foundation
import Reports
import Testing

@testable import RingcheckCLI

/// `examples/ci/`: the GitHub Actions workflow and the GitLab CI job users copy. They must be YAML
/// (read with ringcheck's own loader), name only `ringcheck` commands and options that exist (checked
/// with the CLI's own command configurations and parser), and publish what a CI run needs.
@Suite struct CIExamplesTests {
    static let folder = TargetCommandTests.repositoryRoot + "/examples/ci"
    static let files = ["github-actions.yml", "gitlab-ci.yml"]

    /// Every scalar of the document, depth first.
    static func scalars(_ node: YAMLNode) -> [String] {
        if let text = node.scalarText { return [text] }
        if let items = node.items { return items.flatMap(scalars) }
        return (node.entries ?? []).flatMap { scalars($0.value) }
    }

    /// The shell the CI runs: GitHub's `run:` steps, GitLab's `script`, `before_script`, `after_script`.
    static func shellScripts(_ node: YAMLNode) -> [String] {
        if let items = node.items { return items.flatMap(shellScripts) }
        return (node.entries ?? []).flatMap { entry in
            ["run", "script", "before_script", "after_script"].contains(entry.key)
                ? scalars(entry.value) : shellScripts(entry.value)
        }
    }

    /// The value at `path` (mapping keys) under `node`.
    static func value(_ node: YAMLNode, _ path: String...) -> YAMLNode? {
        var current: YAMLNode? = node
        for key in path { current = current?.entries?.first { $0.key == key }?.value }
        return current
    }

    /// The `ringcheck …` command lines in shell text, as argument words (quotes removed, variables
    /// left as written): a command starts a line or follows `&&`, `||`, `;` or `|`, and ends there,
    /// at a redirection or at a comment. A path ending in `/ringcheck` counts as `ringcheck`.
    static func ringcheckCommands(in text: String) -> [[String]] {
        let joined = text.replacingOccurrences(of: "\\\n", with: " ")
        var commands: [[String]] = []
        for line in joined.split(separator: "\n") {
            let code = line.components(separatedBy: " #").first ?? ""
            var segments = [code]
            for separator in ["&&", "||", ";", "|"] {
                segments = segments.flatMap { $0.components(separatedBy: separator) }
            }
            for segment in segments {
                var words = segment.split(separator: " ").map {
                    String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                }
                if let redirect = words.firstIndex(where: { $0.hasPrefix(">") || $0.hasPrefix("2>") }) {
                    words = Array(words[..<redirect])
                }
                guard let first = words.first, first == "ringcheck" || first.hasSuffix("/ringcheck") else { continue }
                commands.append(Array(words.dropFirst()))
            }
        }
        return commands
    }

    /// Why `arguments` (after `ringcheck`) is not a command the CLI accepts; nil when it is.
    static func problem(_ arguments: [String]) -> String? {
        guard let name = arguments.first else { return "no subcommand" }
        if ["--version", "--help", "-h", "help", "version"].contains(name) { return nil }
        guard let command = Ringcheck.commands.first(where: { $0.configuration.name == name }) else {
            return "no subcommand '\(name)'"
        }
        let rest = Array(arguments.dropFirst())
        do { _ = try ArgumentParser.parse(rest, for: command.configuration) } catch {
            return "ringcheck \(name): \(error)"
        }
        // Literal values the CLI checks later.
        for (i, word) in rest.enumerated() where i + 1 < rest.count && !rest[i + 1].hasPrefix("$") {
            let value = rest[i + 1]
            if word == "--profile", Profiles.named(value) == nil, value != "all" { return "no profile '\(value)'" }
            if word == "--format",
                let bad = value.split(separator: ",").first(where: { ReportFormat(rawValue: String($0)) == nil })
            {
                return "no report format '\(bad)'"
            }
        }
        return nil
    }

    @Test func theCheckerRefusesCommandsThatDoNotExist() {
        let commands = Self.ringcheckCommands(
            in: "set -e\nringcheck frobnicate\n/opt/x/bin/ringcheck run --tagz a && ringcheck list --profile nope\n"
                + "ringcheck run --format html,pdf\nringcheck run --target \"$T\" --report-dir reports # ok\n")
        #expect(commands.count == 5, "\(commands)")
        let problems = commands.map(Self.problem)
        #expect(problems[0] == "no subcommand 'frobnicate'")
        #expect(problems[1]?.contains("--tagz") == true, "\(problems)")
        #expect(problems[2] == "no profile 'nope'")
        #expect(problems[3] == "no report format 'pdf'")
        #expect(problems[4] == nil)
    }

    @Test(arguments: files)
    func anExampleParsesAndNamesOnlyExistingCommands(file: String) throws {
        let root = try YAMLDocument.parse(contentsOfFile: Self.folder + "/" + file)
        let commands = Self.shellScripts(root).flatMap(Self.ringcheckCommands)
        #expect(commands.count >= 3, "\(file) names too few ringcheck commands: \(commands)")
        for command in commands {
            #expect(Self.problem(command) == nil, "\(file): ringcheck \(command.joined(separator: " "))")
        }
        // It runs the suite against a target file, with the reports where it publishes them.
        let run = try #require(commands.first { $0.first == "run" }, "\(file) runs no suite")
        #expect(run.contains("--target"), "\(file): \(run)")
        #expect(run.contains("--report-dir") && run[run.firstIndex(of: "--report-dir")! + 1] == "reports")
        // It checks the target file with `validate` before the run, and judges both as RINGCHECK_PROFILE.
        let validate = try #require(commands.first { $0.first == "validate" }, "\(file) never validates the target")
        #expect(validate.contains("--target"), "\(file): \(validate)")
        #expect(commands.firstIndex { $0.first == "validate" }! < commands.firstIndex { $0.first == "run" }!)
        for command in [validate, run] {
            let profile = command.firstIndex(of: "--profile").map { command[$0 + 1] }
            #expect(profile == "$RINGCHECK_PROFILE", "\(file): RINGCHECK_PROFILE is not given to \(command)")
        }
        // It installs ringcheck with the repository's install step.
        let text = Self.shellScripts(root).joined(separator: "\n")
        #expect(text.contains("make -C") && text.contains(" install PREFIX="), "\(file)")
    }

    @Test func theGitHubWorkflowPublishesTheJUnitFileTheSummaryAndTheReports() throws {
        let root = try YAMLDocument.parse(contentsOfFile: Self.folder + "/github-actions.yml")
        let jobs = try #require(Self.value(root, "jobs")?.entries)
        let steps = try #require(jobs.first.flatMap { Self.value($0.value, "steps")?.items })
        func step(uses prefix: String) -> YAMLNode? {
            steps.first { Self.value($0, "uses")?.scalarText?.hasPrefix(prefix) == true }
        }
        let junit = try #require(step(uses: "mikepenz/action-junit-report"))
        #expect(Self.value(junit, "with", "report_paths")?.scalarText == "reports/junit.xml")
        #expect(Self.value(junit, "if")?.scalarText == "always()")
        let upload = try #require(step(uses: "actions/upload-artifact"))
        #expect(Self.value(upload, "with", "path")?.scalarText == "reports/")
        #expect(Self.value(upload, "if")?.scalarText == "always()")
        let runs = steps.compactMap { Self.value($0, "run")?.scalarText }
        #expect(runs.contains { $0.contains("cat reports/summary.md >> \"$GITHUB_STEP_SUMMARY\"") })
        // The cache key moves with the commit RINGCHECK_REF names (an entry is never saved again under
        // its key, so a key on the branch name would keep the first build forever).
        let cache = try #require(step(uses: "actions/cache"))
        let key = try #require(Self.value(cache, "with", "key")?.scalarText)
        #expect(key.contains("steps.ref.outputs.commit"), "\(key)")
        #expect(runs.contains { $0.contains("git ls-remote") && $0.contains("commit=") })
    }

    @Test func theGitLabJobPublishesTheJUnitFileAndTheReports() throws {
        let root = try YAMLDocument.parse(contentsOfFile: Self.folder + "/gitlab-ci.yml")
        let job = try #require(Self.value(root, "ringcheck"))
        #expect(Self.value(job, "artifacts", "reports", "junit")?.scalarText == "reports/junit.xml")
        #expect(Self.value(job, "artifacts", "when")?.scalarText == "always")
        #expect(Self.value(job, "artifacts", "paths")?.items?.compactMap(\.scalarText) == ["reports/"])
        #expect(Self.scalars(job).contains { $0.contains("reports/summary.md") })
    }

    @Test func theMakefileHasTheInstallTargetTheExamplesUse() throws {
        let makefile = try String(contentsOfFile: TargetCommandTests.repositoryRoot + "/Makefile", encoding: .utf8)
        #expect(makefile.contains("\ninstall:"))
        #expect(makefile.contains("scripts/install.sh --prefix \"$(PREFIX)\""))
        #expect(FileManager.default.isExecutableFile(atPath: TargetCommandTests.repositoryRoot + "/scripts/install.sh"))
    }
}
