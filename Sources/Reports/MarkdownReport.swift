import Foundation

/// A Markdown summary for a CI step summary (`$GITHUB_STEP_SUMMARY`): verdict and counts, then "What failed"
/// (each failure's requirement, level, expected and actual under its scenario, with the re-run command),
/// one table row per scenario (failed first), and the failed requirements. Requirements no scenario of the
/// run touched are one count, not rows.
public enum MarkdownReport {
    public static func render(_ input: RunResult) -> String {
        let result = input.redacted()
        let counts = result.statusCounts
        var md =
            "## ringcheck · profile \(ReportText.markdownCell(result.profile)) · suite \(ReportText.markdownCell(result.suite.id)) \(ReportText.markdownCell(result.suite.version)): \(verdictLine(result))\n\n"
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
        let order = ["pass", "fail", "flaky", "notApplicable", "error", "timeout"]
        md += "- Scenarios: " + order.map { "\($0) \(counts[$0, default: 0])" }.joined(separator: " · ")
        if !result.notRun.isEmpty { md += " · not run \(result.notRun.count)" }
        md += "\n" + requirementsLine(result) + "\n"
        md += whatFailed(result)

        md += "\n| Scenario | Status | Requirements | Duration |\n|---|---|---|---|\n"
        for (_, s) in ReportOrder.failedFirst(result.scenarios) {
            var status = s.status.name
            if let detail = s.status.detail { status += ": " + detail }
            md +=
                "| `\(codeCell(s.id))` \(ReportText.markdownCell(s.title)) | \(icon(s.status)) \(ReportText.markdownCell(status)) | \(s.requirements.map(ReportText.markdownCell).joined(separator: ", ")) | \(ReportText.duration(ms: s.durationMs)) |\n"
        }
        for s in result.notRun {
            md +=
                "| `\(codeCell(s.id))` \(ReportText.markdownCell(s.title)) | ⏹️ not run: \(ReportText.markdownCell(s.reason)) | \(s.requirements.map(ReportText.markdownCell).joined(separator: ", ")) | – |\n"
        }

        let failed = result.requirementResults.filter { $0.verdict == .fail }
        if !failed.isEmpty {
            md += "\n### Failed requirements\n\n| Requirement | Level | Statement |\n|---|---|---|\n"
            for r in failed.sorted(by: {
                ($0.requirement.level == .must ? 0 : 1) < ($1.requirement.level == .must ? 0 : 1)
            }) {
                md +=
                    "| \(ReportText.markdownCell(r.requirement.id)) | \(r.requirement.level.rawValue) | \(ReportText.markdownCell(r.requirement.statement)) |\n"
            }
        }
        return md
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

    /// Every failure under its scenario (failed scenarios first, then errors and timeouts) with the re-run
    /// command, then the scenarios that did not run; empty when nothing failed.
    static func whatFailed(_ result: RunResult) -> String {
        let failing = ReportOrder.whatFailed(result.scenarios)
        guard !failing.isEmpty || !result.notRun.isEmpty else { return "" }
        var md = "\n### What failed\n"
        for (_, s) in failing {
            md += "\n**\(ReportText.markdownCell(s.id))** (\(s.status.name)) \(ReportText.markdownCell(s.title))\n\n"
            if let detail = s.status.detail { md += "- \(ReportText.markdownCell(detail))\n" }
            for f in ReportOrder.mustFirst(s.failures) {
                md +=
                    "- \(f.level.rawValue) \(ReportText.markdownCell(f.requirement ?? "unattributed")): \(ReportText.markdownCell(f.check)) — expected \(ReportText.markdownCell(f.expected)), actual \(ReportText.markdownCell(f.actual))\n"
            }
            md += "\n```sh\n\(ReportText.markdownCode(s.rerunCommand))\n```\n"
        }
        if !result.notRun.isEmpty {
            md += "\n**Not run** (\(result.notRun.count)): "
            md += result.notRun.map { "`\(codeCell($0.id))`" }.joined(separator: ", ")
            md += " — \(ReportText.markdownCell(result.notRun[0].reason))\n"
        }
        return md
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
            return w == 0 ? "✅ conformant" : "✅ conformant with \(w) SHOULD warning\(w == 1 ? "" : "s")"
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
