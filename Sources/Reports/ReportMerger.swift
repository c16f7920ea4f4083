import Foundation
import InputLimits

/// Why shard results cannot be joined.
public struct ReportMergeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Joins the results of `--shard I/N` runs into one run (`ringcheck report merge`).
public enum ReportMerger {
    /// One result covering every shard: the same profile, suite, version and target are required; a scenario may
    /// appear in one shard only; the run spans the earliest start to the latest finish. Scenarios are
    /// sorted by ID so the merge does not depend on the order the files were given in.
    public static func merge(_ parts: [RunResult]) throws(ReportMergeError) -> RunResult {
        guard let first = parts.first else { throw ReportMergeError("nothing to merge") }
        for p in parts.dropFirst() {
            if p.profile != first.profile {
                throw ReportMergeError("shards ran different profiles: \(first.profile) and \(p.profile)")
            }
            if p.suite.id != first.suite.id || p.suite.version != first.suite.version {
                throw ReportMergeError(
                    "shards ran different suites: \(first.suite.id) \(first.suite.version) and \(p.suite.id) \(p.suite.version)"
                )
            }
            if p.target != first.target {
                throw ReportMergeError("shards ran against different targets: '\(first.target)' and '\(p.target)'")
            }
            if p.ringcheckVersion != first.ringcheckVersion {
                throw ReportMergeError(
                    "shards ran different ringcheck versions: \(first.ringcheckVersion) and \(p.ringcheckVersion)")
            }
            if p.strict != first.strict {
                throw ReportMergeError("some shards ran with --strict and some without: run them all the same way")
            }
        }
        let counts = Set(parts.compactMap { $0.shard?.count })
        if counts.count > 1 {
            throw ReportMergeError("shards of different splits: \(counts.sorted().map(String.init))")
        }
        let indices = parts.compactMap { $0.shard?.index }
        if Set(indices).count != indices.count {
            throw ReportMergeError(
                "shard \(indices.first { i in indices.filter { $0 == i }.count > 1 } ?? 0) is given twice")
        }

        var seen: [String: Int] = [:]
        var scenarios: [ScenarioResult] = []
        for (i, p) in parts.enumerated() {
            for s in p.scenarios {
                if let other = seen[s.id] {
                    throw ReportMergeError("scenario \(s.id) appears in parts \(other + 1) and \(i + 1)")
                }
                seen[s.id] = i
                scenarios.append(s)
            }
        }
        var requirements: [RequirementInfo] = []
        for p in parts {
            for r in p.requirements where !requirements.contains(where: { $0.id == r.id }) { requirements.append(r) }
        }
        return RunResult(
            ringcheckVersion: first.ringcheckVersion, profile: first.profile, suite: first.suite, target: first.target,
            startedAt: parts.map(\.startedAt).min() ?? first.startedAt,
            finishedAt: parts.map(\.finishedAt).max() ?? first.finishedAt, requirements: requirements,
            scenarios: scenarios.sorted { $0.id < $1.id }, shard: nil, strict: first.strict,
            notRun: parts.flatMap(\.notRun).filter { seen[$0.id] == nil }.sorted { $0.id < $1.id },
            interruption: parts.lazy.compactMap(\.interruption).first,
            notices: parts.flatMap(\.notices).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
    }

    /// Reads JSON reports and merges them; a file that is not a report is named in the error.
    public static func merge(files: [String]) throws(ReportMergeError) -> RunResult {
        var parts: [RunResult] = []
        for file in files {
            let data: Data
            do { data = Data(try BoundedFile.bytes(file)) } catch { throw ReportMergeError(error.description) }
            do { parts.append(try JSONReport.decode(data)) } catch {
                throw ReportMergeError("\(file): not a \(RunResult.schema) report (\(error))")
            }
        }
        return try merge(parts)
    }
}
