import Foundation

/// What `ringcheck run` prints: one progress line per scenario as it finishes, then each failure
/// (requirement, expected against actual, evidence, re-run command) and the verdict.
public enum ConsoleReport {
    /// `✔ pass    arbitration.two-devices-race  (1.23s)`, with the reason for not applicable, errors and timeouts.
    /// A scenario that failed only SHOULDs of a lenient run (`strict` false) is a warning: `⚠ WARN` in
    /// yellow, not `✘ FAIL`, since it does not change the exit code.
    public static func progressLine(_ s: ScenarioResult, style: ConsoleStyle, strict: Bool = false) -> String {
        let warning = s.isWarning(strict: strict)
        let (mark, color): (String, ConsoleStyle.Color) =
            switch s.status {
            case .fail where warning: ("⚠ WARN   ", .yellow)
            case .flaky where warning: ("⚠ FLAKY  ", .yellow)
            case .pass: ("✔ pass   ", .green)
            case .fail: ("✘ FAIL   ", .red)
            case .flaky: ("✘ FLAKY  ", .red)
            case .notApplicable: ("○ n/a    ", .dim)
            case .error: ("! ERROR  ", .yellow)
            case .timeout: ("! TIMEOUT", .yellow)
            }
        var line =
            style.paint(mark, color) + " " + clean(s.id)
            + style.paint("  (\(ReportText.duration(ms: s.durationMs)))", .dim)
        if s.status == .flaky { line += " \(s.passedAttempts)/\(s.attempts) passed" }
        if let detail = s.status.detail { line += style.paint(" — " + clean(detail), .dim) }
        return line
    }

    /// The failures, then counts and the verdict line. By default failures are grouped by requirement
    /// and check, with one line per push or exchange (`failureGroups`); `verbose` prints every failure
    /// of every scenario with its full evidence (the captures and HTTP exchanges), as the HTML report does.
    /// `namingProfile` names the run's profile in the verdict line (`verdictLine`).
    public static func summary(
        _ input: RunResult, style: ConsoleStyle, verbose: Bool = false, namingProfile: Bool = false
    ) -> String {
        let r = input.redacted()
        var out = verbose ? failureDetails(r, style: style) : failureGroups(r, style: style)
        let counts = r.summaryCounts
        let parts = RunResult.summaryCountNames.compactMap { name in
            counts[name].map { "\($0) \(name)" }
        }
        out +=
            "\n\(r.scenarios.count) scenario\(r.scenarios.count == 1 ? "" : "s"): \(parts.joined(separator: ", ")) in \(ReportText.duration(ms: r.durationSeconds * 1000))\n"
        let failedMust = r.failedRequirements(.must)
        let failedShould = r.failedRequirements(.should)
        if !failedMust.isEmpty { out += style.paint("MUST failed: " + failedMust.joined(separator: ", "), .red) + "\n" }
        if !failedShould.isEmpty {
            let label = r.strict ? "SHOULD failed: " : "SHOULD warnings: "
            out += style.paint(label + failedShould.joined(separator: ", "), r.strict ? .red : .yellow) + "\n"
        }
        out +=
            header(
                r.ringcheckVersion, profile: r.profile, suite: r.suite, target: r.target, startedAt: r.startedAt,
                style: style) + "\n"
        if let merge = r.merge { out += "Merged: \(merge.description)\n" }
        for problem in r.runProblems { out += style.paint("Not judged: \(problem.message)", .yellow) + "\n" }
        if r.merge != nil, !r.notRun.isEmpty {
            out += "Not run: \(r.notRun.count) scenario\(r.notRun.count == 1 ? "" : "s") (\(r.notRun[0].reason))\n"
        }
        out += verdictLine(r, style: style, namingProfile: namingProfile) + "\n"
        for notice in r.notices { out += style.paint("Warning: " + notice, .yellow) + "\n" }
        return out
    }

    /// `Verdict: non-conformant (exit 1)`: all that `run --quiet` prints. With `namingProfile` (each
    /// profile's run in `run --profile all`): `Verdict (callx): non-conformant (exit 1)`.
    public static func verdictLine(_ r: RunResult, style: ConsoleStyle, namingProfile: Bool = false) -> String {
        let failedShould = r.failedRequirements(.should)
        let verdict: String
        switch r.verdict {
        case .conformant:
            let w = failedShould.count
            verdict =
                w > 0
                ? style.paint("⚠ conformant with \(w) SHOULD warning\(w == 1 ? "" : "s")", .yellow)
                : style.paint("conformant", .green)
        case .nonConformant:
            verdict = style.paint("non-conformant", .red) + (r.strict ? " (strict: SHOULDs count)" : "")
        case .inconclusive: verdict = style.paint("inconclusive", .yellow)
        }
        let label = namingProfile ? "Verdict (\(clean(r.profile)))" : "Verdict"
        return "\(label): \(verdict) (exit \(r.exitCode))"
    }

    /// Every failure of every failed scenario with its full evidence, for `--verbose`.
    static func failureDetails(_ r: RunResult, style: ConsoleStyle) -> String {
        var out = ""
        for s in r.scenarios where s.status.isFailure || s.status.isHarnessProblem {
            let status = s.isWarning(strict: r.strict) ? "warning" : s.status.name
            out += "\n" + style.paint("── \(clean(s.id)) (\(status))", .bold) + " " + clean(s.title) + "\n"
            if let detail = s.status.detail { out += "   \(clean(detail))\n" }
            for f in s.failures {
                let warning = f.level == .should && !r.strict
                let color: ConsoleStyle.Color = warning ? .yellow : .red
                let id = f.requirement ?? "unattributed"
                out +=
                    "   " + style.paint("\(warning ? "⚠ " : "")\(f.level.rawValue) \(id)", color) + ": "
                    + clean(ReportWording.check(f.check)) + "\n"
                if let statement = f.requirement.flatMap({ r.requirement($0)?.statement }) {
                    out += style.paint("     \(ReportWording.ruleLabel(f.level)) \(clean(statement))", .dim) + "\n"
                }
                out += ruleAndActual(f, now: r.finishedAt, indent: 5) { indent(clean($0), $1) }
                for e in f.evidence {
                    out += style.paint("     \(e.kind.rawValue): \(clean(e.title))", .dim) + "\n"
                    out +=
                        clean(e.text).split(separator: "\n", omittingEmptySubsequences: false).map { "       " + $0 }
                        .joined(separator: "\n") + "\n"
                }
            }
            out += "   re-run: " + clean(s.rerunCommand) + "\n"
        }
        return out
    }

    /// `ringcheck 0.1.0 · profile callx · suite callx 0.1.0 · target … · 2026-11-30T15:00:00.000Z`, printed
    /// before the first scenario and again above the verdict.
    public static func header(
        _ ringcheckVersion: String, profile: String, suite: SuiteDescription, target: String, startedAt: Date,
        style: ConsoleStyle
    ) -> String {
        style.paint(
            "ringcheck \(clean(ringcheckVersion)) · profile \(clean(profile)) · suite \(clean(suite.id)) \(clean(suite.version)) · target \(clean(target)) · \(ReportText.timestamp(startedAt))",
            .dim)
    }

    /// Removes terminal control characters a backend could smuggle into our output (escape sequences).
    static func clean(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { s in
                    (s.value < 0x20 && s != "\n" && s != "\t") || s.value == 0x7F || (0x80...0x9F).contains(s.value)
                        ? "\u{FFFD}" : s
                }))
    }

    static func indent(_ text: String, _ width: Int) -> String {
        text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: width))
    }
}
