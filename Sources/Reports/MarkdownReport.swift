import Foundation

/// A Markdown summary for a CI step summary (`$GITHUB_STEP_SUMMARY`) that reads in seconds: verdict and
/// counts, then "What failed" — one entry per requirement and check (`FailureGroups`, MUSTs first) with
/// the rule, the actual value and the re-run command of the first scenario it failed in and the others
/// listed — then the requirements that failed, and the passes folded into `<details>`. Its length grows
/// with the number of distinct defects, not of scenarios (one MUST defect in 36 scenarios is ~40 lines).
/// Requirements no scenario of the run touched are one count, not rows.
public enum MarkdownReport {
    public static func render(_ input: RunResult) -> String {
        let result = input.redacted()
        var md =
            "## ringcheck · profile \(ReportText.markdownCell(result.profile)) · suite \(ReportText.markdownCell(result.suite.id)) \(ReportText.markdownCell(result.suite.version)): \(verdictLine(result))\n\n"
        md += facts(result)
        md += whatFailed(result)
        md += requirementsSection(result)
        md += foldedScenarios(result)
        return md
    }

    /// Interruption, run problems and notices, then target, version, scenario and requirement counts.
    static func facts(_ result: RunResult) -> String {
        var md = ""
        if let interruption = result.interruption {
            md +=
                "> **Interrupted by \(interruption.signal)** (exit \(interruption.exitCode)): these are the scenarios that finished; \(result.notRun.count) did not run.\n\n"
        }
        for problem in result.runProblems {
            md +=
                "> ⚠️ **Not judged: \(ReportText.markdownCell(problem.title))** — \(ReportText.markdownCell(problem.message))\n\n"
        }
        for notice in result.notices { md += "> ⚠️ **Warning:** \(ReportText.markdownCell(notice))\n\n" }
        md += "- Target: \(ReportText.markdownCell(result.target))\n"
        md +=
            "- ringcheck \(ReportText.markdownCell(result.ringcheckVersion)), started \(ReportText.timestamp(result.startedAt)), \(ReportText.duration(ms: result.durationSeconds * 1000))"
        if let shard = result.shard { md += ", shard \(shard)" }
        if let merge = result.merge { md += ", \(merge.description)" }
        md += "\n"
        let counts = result.statusCounts
        let order = ["pass", "fail", "flaky", "notApplicable", "error", "timeout"]
        md += "- Scenarios: " + order.map { "\($0) \(counts[$0, default: 0])" }.joined(separator: " · ")
        let warnings = result.scenarios.filter { $0.isWarning(strict: result.strict) }.count
        if warnings > 0 { md += " (\(warnings) of them only SHOULD warnings)" }
        if !result.notRun.isEmpty { md += " · not run \(result.notRun.count)" }
        return md + "\n" + requirementsLine(result)
    }

    /// The requirements that failed or could not be judged, failing first, in a table; the passes folded.
    static func requirementsSection(_ result: RunResult) -> String {
        let rows = result.requirementResults
        let open = rows.filter { $0.verdict == .fail || $0.verdict == .inconclusive }
        var md = ""
        if !open.isEmpty {
            md += "\n### Requirements that failed\n\n| Requirement | Level | Verdict | Rule |\n|---|---|---|---|\n"
            let sorted = open.filter { $0.requirement.level == .must } + open.filter { $0.requirement.level != .must }
            for r in ReportOrder.failingFirst(sorted) {
                let warning = r.verdict == .fail && r.requirement.level == .should && !result.strict
                let verdict = warning ? "⚠️ warning" : r.verdict == .fail ? "❌ fail" : "⚠️ inconclusive"
                md +=
                    "| \(ReportText.markdownCell(r.requirement.id)) | \(r.requirement.level.rawValue) | \(verdict) | \(ReportText.markdownCell(r.requirement.statement)) |\n"
            }
        }
        let passed = rows.filter { $0.verdict == .pass }.map { "`\(codeCell($0.requirement.id))`" }
        md += folded(
            "✅ \(passed.count) requirement\(passed.count == 1 ? "" : "s") passed", passed.joined(separator: " · "))
        return md
    }

    /// The passed and not-applicable scenarios, each set folded into one `<details>` (not applicable
    /// grouped by reason); the failed ones are already named under "What failed".
    static func foldedScenarios(_ result: RunResult) -> String {
        let passed = result.scenarios.filter { $0.status == .pass }.map { "`\(codeCell($0.id))`" }
        var md = folded(
            "✅ \(passed.count) scenario\(passed.count == 1 ? "" : "s") passed", passed.joined(separator: " · "))
        var reasons: [(reason: String, ids: [String])] = []
        for s in result.scenarios {
            guard case .notApplicable(let reason) = s.status else { continue }
            if let i = reasons.firstIndex(where: { $0.reason == reason }) {
                reasons[i].ids.append(s.id)
            } else {
                reasons.append((reason, [s.id]))
            }
        }
        let count = reasons.map(\.ids.count).reduce(0, +)
        let body = reasons.map { group in
            "- \(ReportText.markdownCell(group.reason)): "
                + group.ids.map { "`\(codeCell($0))`" }.joined(separator: " · ")
        }
        md += folded("⏭️ \(count) scenario\(count == 1 ? "" : "s") not applicable", body.joined(separator: "\n"))
        return md
    }

    /// `<details><summary>…</summary>` around `body`; nothing when `body` is empty.
    static func folded(_ summary: String, _ body: String) -> String {
        guard !body.isEmpty else { return "" }
        return "\n<details><summary>\(summary)</summary>\n\n\(body)\n\n</details>\n"
    }

    /// `- Requirements: pass 12 · fail 1 · …; 40 not touched by the selected scenarios`: the catalogue rows
    /// a subset run did not evidence are one count.
    static func requirementsLine(_ r: RunResult) -> String {
        var counts: [RequirementVerdict: Int] = [:]
        for row in r.requirementResults { counts[row.verdict, default: 0] += 1 }
        let shown: [RequirementVerdict] = [.pass, .fail, .inconclusive, .notApplicable]
        var line =
            "- Requirements: " + shown.map { "\($0.rawValue) \(counts[$0, default: 0])" }.joined(separator: " · ")
        if let untouched = counts[.notEvidenced], untouched > 0 {
            line += "; \(untouched) not touched by the selected scenarios"
        }
        return line + "\n"
    }

    /// One entry per requirement and check that failed (MUSTs first): the rule and actual value of the
    /// first scenario it failed in, the others listed, the first one's re-run command; then errors and
    /// timeouts grouped by reason, then the scenarios that did not run. Empty when nothing failed.
    static func whatFailed(_ result: RunResult) -> String {
        let grouped = FailureGroups(result)
        guard !grouped.isEmpty || !result.notRun.isEmpty else { return "" }
        let cell = ReportText.markdownCell
        var md = "\n### What failed\n"
        for g in grouped.failures {
            let f = g.failure
            let count = g.scenarios.count
            let head =
                g.isWarning
                ? "⚠️ SHOULD \(cell(f.requirement ?? "unattributed"))** warning in"
                : "❌ \(f.level.rawValue) \(cell(f.requirement ?? "unattributed"))** failed in"
            md += "\n**\(head) \(count) scenario\(count == 1 ? "" : "s"): \(cell(ReportWording.check(f.check)))\n\n"
            if let statement = f.requirement.flatMap({ result.requirement($0)?.statement }) {
                md += "- \(ReportWording.ruleLabel(f.level)) \(cell(statement))\n"
            }
            md += firstLine(g.first)
            let rule = ReportWording.rule(f.level, expected: f.expected)
            md +=
                "- \(rule.label) \(cell(rule.text)) — actual: \(cell(ReportWording.withDates(f.actual, now: result.finishedAt)))\n"
            for line in FailureGroups.otherCheckLines(g) { md += "- also failed by: \(cell(line))\n" }
            md += restLines(g.first, g.scenarios)
        }
        for p in grouped.problems {
            let count = p.scenarios.count
            let detail = p.detail.isEmpty ? "failed without a recorded check" : p.detail
            md +=
                "\n**\(icon(p.first.status)) \(p.status)** in \(count) scenario\(count == 1 ? "" : "s"): \(cell(detail))\n\n"
            md += firstLine(p.first) + restLines(p.first, p.scenarios)
        }
        if !result.notRun.isEmpty {
            md += "\n**Not run** (\(result.notRun.count)): "
            md += result.notRun.map { "`\(codeCell($0.id))`" }.joined(separator: ", ")
            md += " — \(ReportText.markdownCell(result.notRun[0].reason))\n"
        }
        return md
    }

    /// `- first: `id` title`, the scenario whose values a group shows.
    static func firstLine(_ first: ScenarioResult) -> String {
        var md = "- first: `\(codeCell(first.id))` \(ReportText.markdownCell(first.title))"
        if first.status == .flaky { md += " (flaky: \(first.passedAttempts)/\(first.attempts) passed)" }
        return md + "\n"
    }

    /// `- also in (N): …` listing every other scenario, then the first one's re-run command.
    static func restLines(_ first: ScenarioResult, _ scenarios: [String]) -> String {
        var md = ""
        let others = scenarios.dropFirst()
        if !others.isEmpty {
            md += "- also in (\(others.count)): " + others.map { "`\(codeCell($0))`" }.joined(separator: ", ") + "\n"
        }
        return md + "\n```sh\n\(ReportText.markdownCode(first.rerunCommand))\n```\n"
    }

    /// Text inside a code span in a table cell: no backticks, pipes escaped (GFM), one line.
    static func codeCell(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    static func verdictLine(_ r: RunResult) -> String {
        switch r.verdict {
        case .conformant:
            let w = r.failedRequirements(.should).count
            return w == 0 ? "✅ conformant" : "⚠️ conformant with \(w) SHOULD warning\(w == 1 ? "" : "s") (exit 0)"
        case .nonConformant:
            return "❌ non-conformant" + (r.strict ? " (strict: SHOULDs count)" : "") + " (exit \(r.exitCode))"
        case .inconclusive:
            return "⚠️ inconclusive" + (r.interruption != nil ? ": interrupted" : "") + " (exit \(r.exitCode))"
        }
    }

    static func icon(_ s: ScenarioStatus) -> String {
        switch s {
        case .pass: return "✅"
        case .fail: return "❌"
        case .flaky: return "🔀"
        case .notApplicable: return "⏭️"
        case .error: return "⚠️"
        case .timeout: return "⏱️"
        }
    }
}
