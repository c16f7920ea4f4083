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

    @Test func scenarioTableHasOneRowPerScenario() {
        var run = F.mixed
        run.scenarios[1].title = "pipes | and\nnewlines " + F.hostile
        run.scenarios[2].id = "odd|id`with\nbreaks"
        let md = MarkdownReport.render(run)
        let lines = md.components(separatedBy: "\n")
        let header = lines.firstIndex(of: "| Scenario | Status | Requirements | Duration |")
        #expect(header != nil)
        guard let header else { return }
        #expect(lines[header + 1] == "|---|---|---|---|")
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        #expect(rows.count == 6)
        for row in rows { #expect(cells(row) == 4, "\(row)") }
        #expect(!md.contains("<script>"))
    }

    @Test func summaryNamesVerdictFailuresAndRerun() {
        let md = MarkdownReport.render(F.mixed)
        #expect(md.hasPrefix("## ringcheck · profile callx · suite callx 0.1.0: ❌ non-conformant (exit 1)"))
        #expect(md.contains("| CALLX-APNS-5 | MUST | apns-expiration is 0 |"))
        #expect(md.contains("```sh\nringcheck run push.expiration --suite callx\n```"))
        let warn = F.run([
            F.scenario("a.b", .fail, requirements: ["CALLX-ARB-1"], failures: [F.failure("CALLX-ARB-1", .should)])
        ])
        #expect(
            MarkdownReport.render(warn).hasPrefix(
                "## ringcheck · profile callx · suite callx 0.1.0: ✅ conformant with 1 SHOULD warning\n"))
    }
}
