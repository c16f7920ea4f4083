import Foundation

// The JSON report's shape (suites/REPORT-SCHEMA.md). Derived fields (verdict, exit code, summary, requirement
// verdicts) are written for readers and recomputed on reading, so a merged report cannot disagree with itself.

extension RunResult: Codable {
    enum CodingKeys: String, CodingKey {
        case schema, ringcheckVersion, profile, suite, target, startedAt, finishedAt, durationMs, shard, strict, verdict
        case exitCode
        case summary, requirements, scenarios, notRun, interrupted, notices, aborted, merged
    }

    struct Summary: Codable, Equatable {
        var scenarios, pass, fail, flaky, notApplicable, error, timeout, mustFailures, shouldFailures: Int
        /// Of the `fail` and `flaky` scenarios, those that failed only SHOULDs of a lenient run (the console's
        /// `warning`, JUnit's `skipped`).
        var warning: Int
        /// Selected scenarios that never ran (not counted in `scenarios`).
        var notRun: Int
    }

    struct RequirementEntry: Codable {
        var id: String
        var level: RequirementLevel
        var statement: String
        var section: String
        var verdict: RequirementVerdict?
        var scenarios: [String]?
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.schema, forKey: .schema)
        try c.encode(ringcheckVersion, forKey: .ringcheckVersion)
        try c.encode(profile, forKey: .profile)
        try c.encode(suite, forKey: .suite)
        try c.encode(target, forKey: .target)
        try c.encode(ReportText.timestamp(startedAt), forKey: .startedAt)
        try c.encode(ReportText.timestamp(finishedAt), forKey: .finishedAt)
        try c.encode((durationSeconds * 1000).rounded(), forKey: .durationMs)
        try c.encodeIfPresent(shard, forKey: .shard)
        try c.encode(strict, forKey: .strict)
        try c.encode(verdict, forKey: .verdict)
        try c.encode(exitCode, forKey: .exitCode)
        let counts = statusCounts
        let summary = Summary(
            scenarios: scenarios.count, pass: counts["pass", default: 0], fail: counts["fail", default: 0],
            flaky: counts["flaky", default: 0], notApplicable: counts["notApplicable", default: 0],
            error: counts["error", default: 0], timeout: counts["timeout", default: 0],
            mustFailures: failedRequirements(.must).count, shouldFailures: failedRequirements(.should).count,
            warning: warningScenarioCount, notRun: notRun.count)
        try c.encode(summary, forKey: .summary)
        let entries = requirementResults.map {
            RequirementEntry(
                id: $0.requirement.id, level: $0.requirement.level, statement: $0.requirement.statement,
                section: $0.requirement.section, verdict: $0.verdict, scenarios: $0.scenarios)
        }
        try c.encode(entries, forKey: .requirements)
        try c.encode(scenarios, forKey: .scenarios)
        try c.encode(notRun, forKey: .notRun)
        try c.encodeIfPresent(interruption, forKey: .interrupted)
        if !notices.isEmpty { try c.encode(notices, forKey: .notices) }
        try c.encodeIfPresent(aborted, forKey: .aborted)
        try c.encodeIfPresent(merge, forKey: .merged)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let schema = try c.decode(String.self, forKey: .schema)
        guard schema == Self.schema else {
            throw DecodingError.dataCorruptedError(
                forKey: .schema, in: c,
                debugDescription: "unsupported report schema '\(schema)' (expected \(Self.schema))")
        }
        func date(_ key: CodingKeys) throws -> Date {
            let text = try c.decode(String.self, forKey: key)
            guard let d = ReportText.parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "not an ISO 8601 time: \(text)")
            }
            return d
        }
        self.init(
            ringcheckVersion: try c.decode(String.self, forKey: .ringcheckVersion),
            // Reports written before profiles existed were all Callx runs.
            profile: try c.decodeIfPresent(String.self, forKey: .profile) ?? "callx",
            suite: try c.decode(SuiteDescription.self, forKey: .suite),
            target: try c.decode(String.self, forKey: .target),
            startedAt: try date(.startedAt), finishedAt: try date(.finishedAt),
            requirements: try c.decode([RequirementEntry].self, forKey: .requirements).map {
                RequirementInfo(id: $0.id, level: $0.level, statement: $0.statement, section: $0.section)
            },
            scenarios: try c.decode([ScenarioResult].self, forKey: .scenarios),
            shard: try c.decodeIfPresent(Shard.self, forKey: .shard),
            strict: try c.decodeIfPresent(Bool.self, forKey: .strict) ?? false,
            notRun: try c.decodeIfPresent([NotRunScenario].self, forKey: .notRun) ?? [],
            interruption: try c.decodeIfPresent(Interruption.self, forKey: .interrupted),
            notices: try c.decodeIfPresent([String].self, forKey: .notices) ?? [],
            aborted: try c.decodeIfPresent(String.self, forKey: .aborted),
            merge: try c.decodeIfPresent(MergeFacts.self, forKey: .merged))
    }
}

extension ScenarioResult: Codable {
    enum CodingKeys: String, CodingKey {
        case id, title, requirements, tags, status, reason, durationMs, attempts, passedAttempts, rerunCommand
        case failures, timeline
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(requirements, forKey: .requirements)
        try c.encode(tags, forKey: .tags)
        try c.encode(status.name, forKey: .status)
        try c.encodeIfPresent(status.detail, forKey: .reason)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(attempts, forKey: .attempts)
        try c.encode(passedAttempts, forKey: .passedAttempts)
        try c.encode(rerunCommand, forKey: .rerunCommand)
        try c.encode(failures, forKey: .failures)
        try c.encode(timeline, forKey: .timeline)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .status)
        guard let status = ScenarioStatus(name: name, detail: try c.decodeIfPresent(String.self, forKey: .reason))
        else {
            throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "unknown status '\(name)'")
        }
        self.init(
            id: try c.decode(String.self, forKey: .id), title: try c.decode(String.self, forKey: .title),
            requirements: try c.decode([String].self, forKey: .requirements),
            tags: try c.decodeIfPresent([String].self, forKey: .tags) ?? [], status: status,
            durationMs: try c.decode(Double.self, forKey: .durationMs),
            failures: try c.decodeIfPresent([CheckFailure].self, forKey: .failures) ?? [],
            timeline: try c.decodeIfPresent([TimelineItem].self, forKey: .timeline) ?? [],
            rerunCommand: try c.decode(String.self, forKey: .rerunCommand),
            attempts: try c.decodeIfPresent(Int.self, forKey: .attempts) ?? 1,
            passedAttempts: try c.decodeIfPresent(Int.self, forKey: .passedAttempts))
    }
}

/// The JSON report: `RunResult` in the `ringcheck.run/1` schema.
public enum JSONReport {
    /// Pretty-printed JSON with sorted keys (stable diffs between runs). Evidence is redacted again on the way out.
    public static func render(_ result: RunResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding these value types cannot fail: every field is a string, number, array or object.
        guard let data = try? encoder.encode(result.redacted()) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Reads a JSON report (for merging).
    public static func decode(_ data: Data) throws -> RunResult {
        try JSONDecoder().decode(RunResult.self, from: data)
    }
}

extension RunResult {
    /// A copy with every evidence text and timeline detail passed through `ReportRedaction`.
    public func redacted() -> RunResult {
        var copy = self
        for i in copy.scenarios.indices {
            for j in copy.scenarios[i].failures.indices {
                for k in copy.scenarios[i].failures[j].evidence.indices {
                    copy.scenarios[i].failures[j].evidence[k].text = ReportRedaction.apply(
                        copy.scenarios[i].failures[j].evidence[k].text)
                }
            }
            for j in copy.scenarios[i].timeline.indices {
                copy.scenarios[i].timeline[j].detail = copy.scenarios[i].timeline[j].detail.map(ReportRedaction.apply)
            }
        }
        return copy
    }
}
