import Foundation

/// JUnit XML as CI servers read it, valid against the common `junit-10.xsd` (Jenkins' xUnit schema):
/// one `testsuite` for the suite (its properties name the profile, the suite, the target and the verdict),
/// one `testcase` per scenario. A MUST failure (or any failure under `--strict`) is a `failure`; a harness
/// error or timeout is an `error`; not applicable, a SHOULD warning of a lenient run (which exits 0) and a
/// scenario that never ran (`--fail-fast`, Ctrl-C) are `skipped` with the reason in `message`. What kept the
/// run as a whole from being judged (it stopped before any scenario; a merge lacks a shard) is one more
/// testcase each, an `error` naming the cause, so a gate that reads only JUnit fails too. Requirement
/// IDs, levels, tags and the timeline go to the testcase's `system-out` (the schema allows no properties there).
public enum JUnitReport {
    /// How one testcase ends in JUnit's terms.
    enum Outcome {
        case passed
        case skipped(String)
        case error(type: String, message: String, text: String)
        case failure(type: String, message: String, text: String)
    }

    public static func render(_ input: RunResult) -> String {
        let suite = testsuite(input, name: input.suite.id)
        let name = "\(input.suite.id) \(input.suite.version)"
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x +=
            "<testsuites name=\"\(attr("ringcheck " + name))\" tests=\"\(suite.counts.tests)\" failures=\"\(suite.counts.failures)\" errors=\"\(suite.counts.errors)\" time=\"\(String(format: "%.3f", input.durationSeconds))\">\n"
        return x + suite.xml + "</testsuites>\n"
    }

    /// How many testcases a `testsuite` holds, and how many of them failed or errored.
    struct Counts {
        var tests = 0
        var failures = 0
        var errors = 0
        var skipped = 0
    }

    /// One `<testsuite>` element named `name` for a run: its properties, then one testcase per scenario,
    /// scenario that did not run and run problem.
    static func testsuite(_ input: RunResult, name: String) -> (xml: String, counts: Counts) {
        let result = input.redacted()
        let outcomes = result.scenarios.map { outcome($0, result) }
        let notRun = result.notRun.map { Outcome.skipped("not run: " + $0.reason) }
        let problems = result.runProblems.map { Outcome.error(type: "run", message: $0.message, text: $0.message) }
        let all = outcomes + notRun + problems
        var counts = Counts(tests: all.count)
        for o in all {
            switch o {
            case .passed: break
            case .failure: counts.failures += 1
            case .error: counts.errors += 1
            case .skipped: counts.skipped += 1
            }
        }
        let time = String(format: "%.3f", result.durationSeconds)
        let stamp = ReportText.timestamp(result.startedAt)
        var x =
            "  <testsuite name=\"\(attr(name))\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" time=\"\(time)\" timestamp=\"\(stamp)\">\n"
        x += "    <properties>\n"
        var properties: [(String, String)] = [
            ("ringcheck.version", result.ringcheckVersion), ("profile", result.profile), ("suite.id", result.suite.id),
            ("suite.version", result.suite.version), ("suite.title", result.suite.title), ("target", result.target),
            ("verdict", result.verdict.label), ("exitCode", String(result.exitCode)),
            ("judging", result.strict ? "strict" : "lenient"),
        ]
        if let shard = result.shard { properties.append(("shard", shard.description)) }
        if let interruption = result.interruption { properties.append(("interrupted", interruption.signal)) }
        if let merge = result.merge { properties.append(("merged", merge.description)) }
        for notice in result.notices { properties.append(("warning", notice)) }
        // The requirements a lenient run only warns about, for a consumer that reads properties, not skips.
        let warned = result.failedRequirements(.should)
        if !result.strict && !warned.isEmpty { properties.append(("shouldWarnings", warned.joined(separator: ", "))) }
        for (k, v) in properties { x += "      <property name=\"\(attr(k))\" value=\"\(attr(v))\"/>\n" }
        x += "    </properties>\n"
        for (scenario, outcome) in zip(result.scenarios, outcomes) {
            x += testcase(
                classname: classname(scenario.id, result), name: scenario.id, seconds: scenario.durationMs / 1000,
                outcome: outcome, out: systemOut(scenario, result))
        }
        for (scenario, outcome) in zip(result.notRun, notRun) {
            let facts = "\(scenario.title)\nrequirements: \(scenario.requirements.joined(separator: ", "))"
            x += testcase(
                classname: classname(scenario.id, result), name: scenario.id, seconds: 0, outcome: outcome,
                out: facts + "\nRe-run: " + scenario.rerunCommand)
        }
        for (problem, outcome) in zip(result.runProblems, problems) {
            x += testcase(
                classname: result.suite.id + ".run", name: problem.title, seconds: 0, outcome: outcome,
                out: problem.message)
        }
        return (x + "  </testsuite>\n", counts)
    }

    static func classname(_ id: String, _ result: RunResult) -> String {
        result.suite.id + "." + (id.split(separator: ".").first.map(String.init) ?? id)
    }

    /// What scenario `s` is in JUnit's terms: failures that only break SHOULDs in a lenient run are
    /// warnings (skipped), since the run's exit code does not count them.
    static func outcome(_ s: ScenarioResult, _ result: RunResult) -> Outcome {
        switch s.status {
        case .pass: return .passed
        case .notApplicable(let reason): return .skipped("not applicable: " + reason)
        case .error(let message), .timeout(let message):
            return .error(type: s.status.name, message: message, text: message + "\n\nRe-run: " + s.rerunCommand)
        case .fail, .flaky:
            let first = s.failures.first { $0.level == .must } ?? s.failures.first
            let message =
                first.map { f in
                    "\(f.requirement ?? "unattributed") (\(f.level.rawValue)): \(ReportWording.check(f.check))"
                }
                ?? "failed without a recorded check"
            let prefix = s.status == .flaky ? "flaky (\(s.passedAttempts)/\(s.attempts) passed): " : ""
            let must = s.failures.contains { $0.level == .must }
            if s.isWarning(strict: result.strict) {
                return .skipped("SHOULD warning (does not fail the run): " + prefix + message)
            }
            return .failure(
                type: must ? "MUST" : "SHOULD", message: prefix + message, text: failureText(s, now: result.finishedAt))
        }
    }

    static func testcase(classname: String, name: String, seconds: Double, outcome: Outcome, out: String) -> String {
        var x =
            "    <testcase classname=\"\(attr(classname))\" name=\"\(attr(name))\" time=\"\(String(format: "%.3f", seconds))\">\n"
        switch outcome {
        case .passed: break
        case .skipped(let message): x += "      <skipped message=\"\(attr(message))\"/>\n"
        case .error(let type, let message, let body):
            x += "      <error type=\"\(attr(type))\" message=\"\(attr(message))\">\(text(body))</error>\n"
        case .failure(let type, let message, let body):
            x += "      <failure type=\"\(attr(type))\" message=\"\(attr(message))\">\(text(body))</failure>\n"
        }
        x += "      <system-out>\(text(out))</system-out>\n"
        x += "    </testcase>\n"
        return x
    }

    /// The scenario's title, requirements with levels, tags and status, then (for a SHOULD warning) its
    /// failures, then the timeline.
    static func systemOut(_ s: ScenarioResult, _ result: RunResult) -> String {
        var lines = [s.title]
        let reqs = s.requirements.map { "\($0) (\(result.requirement($0)?.level.rawValue ?? "?"))" }
        lines.append("requirements: " + reqs.joined(separator: ", "))
        if !s.tags.isEmpty { lines.append("tags: " + s.tags.joined(separator: ", ")) }
        lines.append("status: " + s.status.name)
        if case .skipped = outcome(s, result), s.status.isFailure {
            lines.append(failureText(s, now: result.finishedAt))
        }
        if !s.timeline.isEmpty {
            lines.append("timeline:")
            lines += s.timeline.map {
                "\(ReportText.offset(ms: $0.atMs)) \($0.kind.rawValue) \($0.actor): \($0.summary)"
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Every failure with its rule (`must be: …`), the actual value (Unix times dated) and evidence, then
    /// the re-run command.
    static func failureText(_ s: ScenarioResult, now: Date) -> String {
        var lines: [String] = []
        for f in s.failures {
            let rule = ReportWording.rule(f.level, expected: f.expected)
            lines.append("[\(f.level.rawValue)] \(f.requirement ?? "unattributed"): \(ReportWording.check(f.check))")
            lines.append("  \(rule.label) \(rule.text)")
            lines.append("  actual: \(ReportWording.withDates(f.actual, now: now))")
            for e in f.evidence {
                lines.append("  evidence (\(e.kind.rawValue)): \(e.title)")
                lines += e.text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            }
        }
        lines.append("Re-run: \(s.rerunCommand)")
        return lines.joined(separator: "\n")
    }

    static func attr(_ s: String) -> String {
        // Attribute values are normalised by XML parsers; keep line breaks as character references.
        ReportText.xml(s).replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\r", with: "&#13;")
            .replacingOccurrences(of: "\t", with: "&#9;")
    }

    static func text(_ s: String) -> String { ReportText.xml(s) }
}
