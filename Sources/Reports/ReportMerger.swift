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
    ///
    /// The shards must come from one split (one count, each index once, the same selection). A shard of the
    /// split that is not given makes the merged run inconclusive: its scenarios are listed as not run, and
    /// `merge` names it. `labels` name the parts in errors (the files); `part N` without them.
    public static func merge(_ parts: [RunResult], labels: [String] = []) throws(ReportMergeError) -> RunResult {
        guard let first = parts.first else { throw ReportMergeError("nothing to merge") }
        let name = { (i: Int) in i < labels.count ? labels[i] : "part \(i + 1)" }
        if let i = parts.firstIndex(where: { $0.merge != nil }) {
            // A merged report alone is rendered again; joined with others, its missing shards would be lost.
            guard parts.count > 1 else { return first }
            throw ReportMergeError(
                "\(name(i)) is already a merged report: merge the shards' own report.json files together")
        }
        try checkSameRun(parts, name: name)
        let split = try checkOneSplit(parts, name: name)

        var seen: [String: Int] = [:]
        var scenarios: [ScenarioResult] = []
        for (i, p) in parts.enumerated() {
            for s in p.scenarios {
                if let other = seen[s.id] {
                    throw ReportMergeError("scenario \(s.id) appears in \(name(other)) and \(name(i))")
                }
                seen[s.id] = i
                scenarios.append(s)
            }
        }
        var requirements: [RequirementInfo] = []
        for p in parts {
            for r in p.requirements where !requirements.contains(where: { $0.id == r.id }) { requirements.append(r) }
        }
        var notRun = parts.flatMap(\.notRun).filter { seen[$0.id] == nil }
        var notices = parts.flatMap(\.notices).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var facts = MergeFacts(reports: parts.count)
        if let split {
            facts.shardCount = split.count
            facts.shards = parts.compactMap { $0.shard?.index }.sorted()
            facts.missingShards = (1...split.count).filter { !facts.shards.contains($0) }
            if let selection = split.selection {
                let template = parts.lazy.flatMap { p in
                    p.scenarios.map { ($0.id, $0.rerunCommand) } + p.notRun.map { ($0.id, $0.rerunCommand) }
                }.first
                for index in facts.missingShards {
                    for id in Shard.scenarios(of: index, count: split.count, in: selection) {
                        notRun.append(
                            NotRunScenario(
                                id: id, title: "", requirements: [],
                                reason: "shard \(index)/\(split.count) missing: no report.json of it was merged",
                                rerunCommand: rerun(id, like: template)))
                    }
                }
            } else if !facts.missingShards.isEmpty {
                notices.append(
                    "the shards' reports do not list the whole selection (written by an older ringcheck): the scenarios of the missing shards cannot be named"
                )
            }
        }
        for (i, p) in parts.enumerated() {
            if let interruption = p.interruption {
                facts.interrupted.append("\(p.shard.map { "shard \($0)" } ?? name(i)): \(interruption.signal)")
            }
        }
        let aborted = parts.enumerated().compactMap { i, p in
            p.aborted.map { "\(p.shard.map { "shard \($0)" } ?? name(i)): \($0)" }
        }
        return RunResult(
            ringcheckVersion: first.ringcheckVersion, profile: first.profile, suite: first.suite, target: first.target,
            startedAt: parts.map(\.startedAt).min() ?? first.startedAt,
            finishedAt: parts.map(\.finishedAt).max() ?? first.finishedAt, requirements: requirements,
            scenarios: scenarios.sorted { $0.id < $1.id }, shard: nil, strict: first.strict,
            notRun: notRun.sorted { $0.id < $1.id }, interruption: nil, notices: notices,
            aborted: aborted.isEmpty ? nil : aborted.joined(separator: "; "), merge: facts)
    }

    /// Every part ran the same profile, suite, target, ringcheck version and judging.
    static func checkSameRun(_ parts: [RunResult], name: (Int) -> String) throws(ReportMergeError) {
        let first = parts[0]
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
    }

    /// The split the parts are shards of (nil when none is a shard): every part is a possible shard of one
    /// count, no index twice, all taken from one selection, each holding only scenarios its index deals it.
    static func checkOneSplit(_ parts: [RunResult], name: (Int) -> String) throws(ReportMergeError) -> Shard? {
        guard let firstShard = parts.firstIndex(where: { $0.shard != nil }) else { return nil }
        let split = parts[firstShard].shard!
        for (i, p) in parts.enumerated() {
            guard let s = p.shard else {
                throw ReportMergeError(
                    "\(name(i)) is not a shard (run without --shard) but \(name(firstShard)) is shard \(split): merge the shards of one split"
                )
            }
            guard s.isPossible else {
                throw ReportMergeError(
                    "\(name(i)): shard \(s) is impossible: "
                        + (s.count < 1 ? "the count must be at least 1" : "the index must be 1 to \(s.count)"))
            }
            if s.count != split.count {
                throw ReportMergeError(
                    "shards of different splits: \(name(firstShard)) is shard \(split), \(name(i)) is shard \(s); merge the shards of one split"
                )
            }
            if let j = parts[..<i].firstIndex(where: { $0.shard?.index == s.index }) {
                throw ReportMergeError("shard \(s) is given twice: \(name(j)) and \(name(i))")
            }
            if s.selection != split.selection {
                throw ReportMergeError(
                    "\(name(firstShard)) and \(name(i)) split different selections (\(split.selection?.count ?? 0) and \(s.selection?.count ?? 0) scenarios): run every shard with the same IDs, globs and --tag"
                )
            }
            if let selection = s.selection {
                let dealt = Set(Shard.scenarios(of: s.index, count: s.count, in: selection))
                if let stray = (p.scenarios.map(\.id) + p.notRun.map(\.id)).first(where: { !dealt.contains($0) }) {
                    throw ReportMergeError(
                        "\(name(i)) says it is shard \(s) but holds \(stray), which is not dealt to that shard")
                }
            }
        }
        return split
    }

    /// The re-run command of `id`, made from a known scenario's (`ringcheck run KNOWN --target …` with the ID
    /// swapped) so it keeps the profile, suite, target and flags; `ringcheck run ID` when there is none to copy.
    static func rerun(_ id: String, like known: (id: String, command: String)?) -> String {
        let prefix = "ringcheck run "
        if let known, known.command.hasPrefix(prefix + known.id) {
            let rest = known.command.dropFirst(prefix.count + known.id.count)
            if rest.isEmpty || rest.hasPrefix(" ") { return prefix + id + rest }
        }
        return prefix + id
    }

    /// Reads JSON reports and merges them; a file that is not a report is named in the error.
    public static func merge(files: [String]) throws(ReportMergeError) -> RunResult {
        var parts: [RunResult] = []
        for file in files {
            let data: Data
            do { data = Data(try BoundedFile.bytes(file, limit: BoundedFile.maxDataBytes)) } catch {
                throw ReportMergeError(error.description)
            }
            do { parts.append(try JSONReport.decode(data)) } catch {
                throw ReportMergeError("\(file): not a \(RunResult.schema) report (\(error))")
            }
        }
        return try merge(parts, labels: files)
    }
}
