import Foundation
import Testing

@testable import Reports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A SHOULD warning of a lenient run (exit 0) looks like a warning in every report — the console's
/// `⚠ WARN` in yellow, the HTML's amber box and `warning` badges, Markdown's ⚠️, JUnit's `skipped` — and
/// never like a failure (`✘ FAIL`, red, a green verdict beside a red box). Under `--strict` it is a failure.
@Suite struct WarningLookTests {
    typealias F = ReportFixtures
    static let plain = ConsoleStyle(colors: false)

    @Test func theConsoleMarksAWarningAsAWarning() {
        let run = F.warningOnly
        let lines = run.scenarios.map { ConsoleReport.progressLine($0, style: Self.plain, strict: run.strict) }
        #expect(lines[1] == "⚠ WARN    arbitration.late  (812ms)")
        let colored = ConsoleReport.progressLine(run.scenarios[1], style: ConsoleStyle(colors: true))
        #expect(colored.hasPrefix("\u{1B}[33m⚠ WARN"))
        let summary = ConsoleReport.summary(run, style: Self.plain)
        #expect(summary.contains("── ⚠ SHOULD CALLX-ARB-1 warning in 1 scenario:"))
        #expect(summary.contains("SHOULD warnings: CALLX-ARB-1"))
        #expect(!summary.contains("FAIL") && !summary.contains("failed in"))
        // The count line counts the SHOULD-only scenario as a warning, as JUnit skips it: not as a failure.
        #expect(summary.contains("\n2 scenarios: 1 pass, 1 warning in "), "\(summary)")
        #expect(
            ConsoleReport.verdictLine(run, style: Self.plain) == "Verdict: ⚠ conformant with 1 SHOULD warning (exit 0)")
        #expect(
            ConsoleReport.verdictLine(run, style: ConsoleStyle(colors: true)).contains(
                "\u{1B}[33m⚠ conformant with 1 SHOULD warning"))
        // The whole console report, as ReportFormat renders it, says the same.
        #expect(ReportFormat.console.render(run).contains("⚠ WARN    arbitration.late"))
    }

    @Test func theHTMLGivesAWarningItsAmberLook() {
        let html = HTMLReport.render(F.warningOnly)
        #expect(html.contains("<p class=\"verdict v-conformant v-warning\">⚠ conformant with 1 SHOULD warning"))
        #expect(html.contains("<section class=\"what-failed warn\" id=\"what-failed\">"))
        #expect(html.contains("<span class=\"badge r-warning\">⚠ SHOULD</span> CALLX-ARB-1 warning in 1 scenario"))
        #expect(html.contains("<td class=\"verdict-cell\"><span class=\"badge r-warning\">warning</span></td>"))
        #expect(html.contains("<span class=\"badge st-warning\">warning</span> arbitration.late"))
        #expect(html.contains("<div class=\"failure l-SHOULD warn\">"))
        #expect(html.contains(".v-conformant.v-warning{") || html.contains(",.v-conformant.v-warning{"))
        #expect(!html.contains("badge r-fail") && !html.contains("badge st-fail") && !html.contains(" counted\""))
    }

    @Test func markdownAndJUnitSayWarning() throws {
        let md = MarkdownReport.render(F.warningOnly)
        #expect(
            md.hasPrefix(
                "## ringcheck · profile callx · suite callx 0.1.0: ⚠️ conformant with 1 SHOULD warning (exit 0)"))
        #expect(md.contains("**⚠️ SHOULD CALLX-ARB-1** warning in 1 scenario"))
        #expect(md.contains("| CALLX-ARB-1 | SHOULD | ⚠️ warning |"))
        #expect(md.contains("(1 of them only SHOULD warnings)"))
        #expect(!md.contains("❌"))
        // The JSON summary keeps counting statuses (the scenario's is `fail`) and says which of them are warnings.
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReport.render(F.warningOnly).utf8)) as? [String: Any])
        let counts = try #require(json["summary"] as? [String: Int])
        #expect(counts["fail"] == 1 && counts["warning"] == 1 && counts["pass"] == 1, "\(counts)")
        let doc = try XMLDocument(data: Data(JUnitReport.render(F.warningOnly).utf8))
        #expect(try doc.nodes(forXPath: "//failure").isEmpty)
        let property = try doc.nodes(forXPath: "//property[@name='shouldWarnings']/@value").first
        #expect(property?.stringValue == "CALLX-ARB-1")
    }

    @Test func strictJudgingMakesTheSameFailureRedEverywhere() throws {
        var run = F.warningOnly
        run.strict = true
        #expect(ConsoleReport.progressLine(run.scenarios[1], style: Self.plain, strict: true).hasPrefix("✘ FAIL"))
        let summary = ConsoleReport.summary(run, style: Self.plain)
        #expect(
            summary.contains("── SHOULD CALLX-ARB-1 failed in 1 scenario:")
                && summary.contains("SHOULD failed: CALLX-ARB-1"))
        let html = HTMLReport.render(run)
        #expect(!html.contains("r-warning\">") && !html.contains("what-failed warn") && html.contains("badge r-fail"))
        let md = MarkdownReport.render(run)
        #expect(md.contains("**❌ SHOULD CALLX-ARB-1** failed in 1 scenario"))
        #expect(summary.contains("\n2 scenarios: 1 pass, 1 fail in "), "\(summary)")
        let doc = try XMLDocument(data: Data(JUnitReport.render(run).utf8))
        #expect(try doc.nodes(forXPath: "//property[@name='shouldWarnings']").isEmpty)
    }
}
