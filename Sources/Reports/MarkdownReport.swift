import Foundation

/// A Markdown summary for a CI step summary (`$GITHUB_STEP_SUMMARY`): verdict, counts, one table row
/// per scenario, the failed requirements, and each failure's expected and actual.
public enum MarkdownReport {
    public static func render(_ input: RunResult) -> String {
        let result = input.redacted()
        let counts = result.statusCounts
        var md =
            "## ringcheck · profile \(ReportText.markdownCell(result.profile)) · suite \(ReportText.markdownCell(result.suite.id)) \(ReportText.markdownCell(result.suite.version)): \(verdictLine(result))\n\n"
        md += "- Target: \(ReportText.markdownCell(result.target))\n"
        md +=
            "- ringcheck \(ReportText.markdownCell(result.ringcheckVersion)), started \(ReportText.timestamp(result.startedAt)), \(ReportText.duration(ms: result.durationSeconds * 1000))"
        if let shard = result.shard { md += ", shard \(shard)" }
        md += "\n"
        let order = ["pass", "fail", "flaky", "notApplicable", "error", "timeout"]
        md += "- Scenarios: " + order.map { "\($0) \(counts[$0, default: 0])" }.joined(separator: " · ") + "\n\n"

        md += "| Scenario | Status | Requirements | Duration |\n|---|---|---|---|\n"
        for s in result.scenarios {
            var status = s.status.name
            if let detail = s.status.detail { status += ": " + detail }
            md +=
                "| `\(codeCell(s.id))` \(ReportText.markdownCell(s.title)) | \(icon(s.status)) \(ReportText.markdownCell(status)) | \(s.requirements.map(ReportText.markdownCell).joined(separator: ", ")) | \(ReportText.duration(ms: s.durationMs)) |\n"
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
        let failing = result.scenarios.filter { $0.status.isFailure || $0.status.isHarnessProblem }
        if !failing.isEmpty {
            md += "\n### Failures\n"
            for s in failing {
                md += "\n**\(ReportText.markdownCell(s.id))** (\(s.status.name))\n\n"
                if let detail = s.status.detail { md += "- \(ReportText.markdownCell(detail))\n" }
                for f in s.failures {
                    md +=
                        "- \(f.level.rawValue) \(ReportText.markdownCell(f.requirement ?? "unattributed")): \(ReportText.markdownCell(f.check)) — expected \(ReportText.markdownCell(f.expected)), actual \(ReportText.markdownCell(f.actual))\n"
                }
                md += "\n```sh\n\(ReportText.markdownCode(s.rerunCommand))\n```\n"
            }
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
        case .nonConformant: return "❌ non-conformant" + (r.strict ? " (strict: SHOULDs count)" : "") + " (exit 1)"
        case .inconclusive: return "⚠️ inconclusive (exit 3)"
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
