import Foundation

/// JUnit XML as CI servers read it: one `testsuite` for the suite (its properties name the profile, the suite,
/// the target and the verdict), one `testcase` per scenario with its
/// requirement IDs as properties, `skipped` for not applicable, `failure` for fail and flaky, `error`
/// for harness errors and timeouts.
public enum JUnitReport {
    public static func render(_ input: RunResult) -> String {
        let result = input.redacted()
        let counts = result.statusCounts
        let tests = result.scenarios.count
        let failures = counts["fail", default: 0] + counts["flaky", default: 0]
        let errors = counts["error", default: 0] + counts["timeout", default: 0]
        let skipped = counts["notApplicable", default: 0]
        let time = String(format: "%.3f", result.durationSeconds)
        let stamp = ReportText.timestamp(result.startedAt)
        let name = "\(result.suite.id) \(result.suite.version)"

        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x +=
            "<testsuites name=\"\(attr("ringcheck " + name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\" timestamp=\"\(stamp)\">\n"
        x +=
            "  <testsuite name=\"\(attr(result.suite.id))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\" timestamp=\"\(stamp)\">\n"
        x += "    <properties>\n"
        var properties: [(String, String)] = [
            ("ringcheck.version", result.ringcheckVersion), ("profile", result.profile), ("suite.id", result.suite.id),
            ("suite.version", result.suite.version), ("suite.title", result.suite.title), ("target", result.target),
            ("verdict", result.verdict.label), ("exitCode", String(result.exitCode)),
        ]
        if let shard = result.shard { properties.append(("shard", shard.description)) }
        for (k, v) in properties { x += "      <property name=\"\(attr(k))\" value=\"\(attr(v))\"/>\n" }
        x += "    </properties>\n"
        for scenario in result.scenarios { x += testcase(scenario, result) }
        x += "  </testsuite>\n</testsuites>\n"
        return x
    }

    static func testcase(_ s: ScenarioResult, _ result: RunResult) -> String {
        let classname = result.suite.id + "." + (s.id.split(separator: ".").first.map(String.init) ?? s.id)
        var x =
            "    <testcase classname=\"\(attr(classname))\" name=\"\(attr(s.id))\" time=\"\(String(format: "%.3f", s.durationMs / 1000))\">\n"
        x += "      <properties>\n"
        x += "        <property name=\"title\" value=\"\(attr(s.title))\"/>\n"
        for id in s.requirements {
            let level = result.requirement(id)?.level.rawValue ?? "?"
            x += "        <property name=\"requirement\" value=\"\(attr(id))\"/>\n"
            x += "        <property name=\"requirement.\(attr(id)).level\" value=\"\(level)\"/>\n"
        }
        for tag in s.tags { x += "        <property name=\"tag\" value=\"\(attr(tag))\"/>\n" }
        x += "        <property name=\"status\" value=\"\(s.status.name)\"/>\n"
        x += "      </properties>\n"
        switch s.status {
        case .pass: break
        case .notApplicable(let reason):
            x += "      <skipped message=\"\(attr("not applicable: " + reason))\"/>\n"
        case .error(let message), .timeout(let message):
            x +=
                "      <error type=\"\(s.status.name)\" message=\"\(attr(message))\">\(text(message + "\n\nRe-run: " + s.rerunCommand))</error>\n"
        case .fail, .flaky:
            let first = s.failures.first
            let message =
                first.map { f in "\(f.requirement ?? "unattributed") (\(f.level.rawValue)): \(f.check)" }
                ?? "failed without a recorded check"
            let prefix = s.status == .flaky ? "flaky (\(s.passedAttempts)/\(s.attempts) passed): " : ""
            let type = s.failures.contains { $0.level == .must } ? "MUST" : "SHOULD"
            x +=
                "      <failure type=\"\(type)\" message=\"\(attr(prefix + message))\">\(text(failureText(s)))</failure>\n"
        }
        if !s.timeline.isEmpty {
            let lines = s.timeline.map {
                "\(ReportText.offset(ms: $0.atMs)) \($0.kind.rawValue) \($0.actor): \($0.summary)"
            }
            x += "      <system-out>\(text(lines.joined(separator: "\n")))</system-out>\n"
        }
        x += "    </testcase>\n"
        return x
    }

    /// Every failure with expected, actual and evidence, then the re-run command.
    static func failureText(_ s: ScenarioResult) -> String {
        var lines: [String] = []
        for f in s.failures {
            lines.append("[\(f.level.rawValue)] \(f.requirement ?? "unattributed"): \(f.check)")
            lines.append("  expected: \(f.expected)")
            lines.append("  actual:   \(f.actual)")
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
