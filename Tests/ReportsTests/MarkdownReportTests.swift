import Foundation
import Testing

@testable import Reports

@Suite struct MarkdownReportTests {
    typealias F = ReportFixtures

    /// Cells of a table row, splitting on pipes that are not escaped.
    func cells(_ line: String) -> Int {
        var count = 0
        var previous: Character = " "
        for ch in line {
            if ch == "|" && previous != "\\" { count += 1 }
            previous = ch
        }
        return count - 1
    }

    @Test func everyScenarioIsNamedAndTheTableStaysOneRowPerRequirement() {
        var run = F.mixed
        run.scenarios[1].title = "pipes | and\nnewlines " + F.hostile
        run.scenarios[2].id = "odd|id`with\nbreaks"
        run.requirements[0].statement = "pipes | and\nnewlines " + F.hostile
        let md = MarkdownReport.render(run)
        let lines = md.components(separatedBy: "\n")
        let header = lines.firstIndex(of: "| Requirement | Level | Verdict | Rule |")
        #expect(header != nil)
        guard let header else { return }
        #expect(lines[header + 1] == "|---|---|---|---|")
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        // The failed MUST first, then the SHOULD the flaky scenario only warns about.
        #expect(rows.count == 2)
        #expect(rows.first?.hasPrefix("| CALLX-APNS-5 | MUST | ❌ fail |") == true)
        #expect(rows.last?.hasPrefix("| CALLX-ARB-1 | SHOULD | ⚠️ warning |") == true)
        for row in rows { #expect(cells(row) == 4, "\(row)") }
        // Failed and stopped scenarios under "What failed", passes and not applicable folded.
        for id in ["push.expiration", "arbitration.late", "basic.timeout", "basic.error", "arbitration.race"] {
            #expect(md.contains("`\(id)`"), "\(id)")
        }
        #expect(md.contains("<details><summary>✅ 1 scenario passed</summary>\n\n`arbitration.race`\n\n</details>"))
        #expect(
            md.contains(
                "<summary>⏭️ 1 scenario not applicable</summary>\n\n- target has no fault injection: `odd\\|id'with breaks`"
            ))
        #expect(!md.contains("<script>"))
    }

    /// The target: one MUST defect seen in 36 scenarios fits 60 lines (it was ~400 before the
    /// failures were grouped: a table row and a block of its own per failed scenario).
    @Test func oneMUSTDefectInManyScenariosFitsSixtyLines() {
        let run = ConsoleGroupingTests.manyFailures(failing: 36, passing: 11)
        let md = MarkdownReport.render(run)
        let lines = md.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 60, "\(md)")
        #expect(md.components(separatedBy: "failed in 36 scenarios").count == 2)
        #expect(
            md.contains(
                "**❌ MUST CALLX-APNS-5** failed in 36 scenarios: headers.apns-expiration, checked on every push and event"
            ))
        #expect(
            md.contains(
                "- first: `calls.s00` Scenario calls.s00\n- must be: \"0\" — actual: \"1796155155\" (2026-12-01 19:59:15 UTC, 71 days after the run ended)"
            ))
        // The rest listed, every one of them.
        let rest = (1..<36).map { String(format: "`calls.s%02d`", $0) }.joined(separator: ", ")
        #expect(md.contains("- also in (35): " + rest))
        #expect(md.contains("<details><summary>✅ 11 scenarios passed</summary>"))
        #expect(md.contains("<details><summary>✅ 1 requirement passed</summary>\n\n`CALLX-ARB-1`"))
        #expect(!md.contains("x-header-3"))
    }

    @Test func summaryNamesVerdictFailuresAndRerun() {
        let md = MarkdownReport.render(F.mixed)
        #expect(md.hasPrefix("## ringcheck · profile callx · suite callx 0.1.0: ❌ non-conformant (exit 1)"))
        #expect(md.contains("| CALLX-APNS-5 | MUST | ❌ fail | apns-expiration is 0 |"))
        #expect(md.contains("```sh\nringcheck run push.expiration --suite callx\n```"))
        let warn = F.run([
            F.scenario("a.b", .fail, requirements: ["CALLX-ARB-1"], failures: [F.failure("CALLX-ARB-1", .should)])
        ])
        #expect(
            MarkdownReport.render(warn).hasPrefix(
                "## ringcheck · profile callx · suite callx 0.1.0: ⚠️ conformant with 1 SHOULD warning (exit 0)\n"))
        #expect(MarkdownReport.render(warn).contains("**⚠️ SHOULD CALLX-ARB-1** warning in 1 scenario:"))
    }
}
