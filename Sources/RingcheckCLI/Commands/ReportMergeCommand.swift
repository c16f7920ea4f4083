import Conformance
import Foundation
import Reports

/// `ringcheck report merge FILES… --report-dir DIR`: join the JSON results of `--shard` runs.
struct ReportMergeCommand: RingcheckCommand {
    /// Computed, as every command's is, so what it reads of the registry in force is read at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "report",
            abstract: "Join shard results: 'ringcheck report merge FILES... --report-dir DIR'.",
            discussion: """
                Reads the report.json of each --shard run, checks they ran the same suite, target and ringcheck
                version with no scenario twice, and writes the joined reports. The exit code is the joined
                verdict (0, 1 or 3), as 'ringcheck run' would have returned for the whole suite; report.json says
                the same. The shards must be of one split (one N, each I once, the same IDs, globs and tags): a
                shard of the split that is not given makes the verdict inconclusive (exit 3, unless a MUST failed),
                naming it and listing its scenarios as not run; so does a shard that was interrupted.
                """,
            arguments: [
                ArgumentSpec(name: "merge", help: "The action (only 'merge').", optional: false),
                ArgumentSpec(name: "FILE", help: "report.json files of the shards.", repeating: true),
            ],
            options: [
                .value("report-dir", "DIR", help: "Where the joined reports are written.", default: "reports"),
                .value(
                    "format", "LIST", help: "Comma-separated: console, junit, json, html, markdown.",
                    default: "console,junit,json,html,markdown"),
            ],
            examples: ["ringcheck report merge r1/report.json r2/report.json --report-dir reports"])
    }

    var files: [String]
    var reportDir: String
    var formats: [ReportFormat]

    init(arguments: ParsedArguments) throws {
        let name = Self.configuration.name
        guard arguments.positionals.first == "merge" else {
            throw UsageError(
                message: "unknown action '\(arguments.positionals.first ?? "")'; use 'merge'", command: name)
        }
        files = Array(arguments.positionals.dropFirst())
        if files.isEmpty { throw UsageError(message: "name at least one report.json to merge", command: name) }
        reportDir = arguments.value("report-dir") ?? "reports"
        if reportDir.isEmpty {
            throw UsageError(message: "--report-dir is empty; give the directory reports are written to", command: name)
        }
        formats = try ReportFormat.parseList(
            arguments.value("format") ?? "console,junit,json,html,markdown", command: name)
    }

    func run() async throws -> ExitCode {
        let merged: RunResult
        do { merged = try ReportMerger.merge(files: files) } catch {
            throw ConfigurationError(message: "\(error)")
        }
        if formats.contains(.console) {
            Console.out(ConsoleReport.summary(merged, style: ConsoleStyle.forStandardOutput()))
        }
        if formats.contains(where: { $0.fileName != nil }) {
            try ReportDirectory.prepare(reportDir)
            do {
                let written = try ReportFormat.write(merged, formats: formats, to: reportDir)
                if formats.contains(.console) { Console.out("Reports: " + written.joined(separator: ", ")) }
            } catch {
                throw ConfigurationError(message: "cannot write reports to \(reportDir): \(error.localizedDescription)")
            }
        }
        // A merged result has no interruption of its own, so its exit code is its verdict's: 0, 1 or 3.
        return ExitCode(rawValue: merged.exitCode) ?? .inconclusive
    }
}
