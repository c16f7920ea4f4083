import Foundation
import Testing

@testable import Reports

/// Reports say what failed in the user's words: a step number, not `scenarios[3].steps[2]`; an invariant
/// said as a rule checked on every push; the rule as a rule (`must be:`); a Unix time as a date.
@Suite struct ReportWordingTests {
    typealias F = ReportFixtures
    static let now = Date(timeIntervalSince1970: 1_796_600_000)

    @Test func checksNameTheStepAndExplainAnInvariant() {
        #expect(
            ReportWording.check("scenarios[3].steps[2] request by a: response status")
                == "step 3 request by a: response status")
        #expect(ReportWording.check("steps[0] expectPush to b-phone") == "step 1 expectPush to b-phone")
        #expect(
            ReportWording.check("invariant headers.apns-expiration on every push and event")
                == "headers.apns-expiration, checked on every push and event")
        #expect(ReportWording.check("invariant on every push and event") == "a rule checked on every push and event")
        // Text that only looks alike is left alone.
        #expect(ReportWording.check("mysteps[2] kept") == "mysteps[2] kept")
        #expect(ReportWording.check("VoIP push has apns-expiration 0") == "VoIP push has apns-expiration 0")
    }

    @Test func theRuleIsARuleOfTheFailuresLevel() {
        #expect(ReportWording.rule(.must, expected: "\"0\"") == ("must be:", "\"0\""))
        #expect(ReportWording.rule(.should, expected: "a JSON object") == ("should be:", "a JSON object"))
        #expect(ReportWording.rule(.must, expected: "no OneSignal request") == ("must have:", "no OneSignal request"))
        #expect(
            ReportWording.rule(.must, expected: "only call.invited is sent as a VoIP push")
                == ("must hold:", "only call.invited is sent as a VoIP push"))
        let matcher = ReportWording.rule(.should, expected: "every matcher holds")
        #expect(matcher.label == "should match:" && !matcher.text.contains("matcher"))
    }

    /// The catalogue states a requirement as what a conforming backend does ("apns-expiration is 0"): above
    /// an actual value that contradicts it, every report labels it as the rule of its level, never as plain
    /// "requirement:" text that reads as a fact.
    @Test func theCatalogueSentenceStandsUnderTheRuleOfItsLevel() {
        #expect(ReportWording.ruleLabel(.must) == "required:")
        #expect(ReportWording.ruleLabel(.should) == "recommended:")
        let run = F.mixed
        let console = ConsoleReport.summary(run, style: ConsoleStyle(colors: false))
        let verbose = ConsoleReport.summary(run, style: ConsoleStyle(colors: false), verbose: true)
        let markdown = MarkdownReport.render(run)
        let html = HTMLReport.render(run)
        #expect(console.contains("\n   required: apns-expiration is 0\n"), "\(console)")
        #expect(console.contains("\n   recommended: exactly one answer wins\n"), "\(console)")
        #expect(verbose.contains("\n     required: apns-expiration is 0\n"), "\(verbose)")
        #expect(markdown.contains("\n- required: apns-expiration is 0\n"), "\(markdown)")
        #expect(markdown.contains("| Requirement | Level | Verdict | Rule |"))
        #expect(html.contains("<p class=\"statement\">required: apns-expiration is 0</p>"))
        #expect(html.contains("<th>Rule</th>") && !html.contains("<th>Statement</th>"))
        for text in [console, verbose, markdown, html] { #expect(!text.contains("requirement: "), "\(text)") }
    }

    @Test func unixTimesReadAsDatesWithTheirDistanceFromTheRun() {
        #expect(
            ReportWording.withDates("\"1796636000\"", now: Self.now)
                == "\"1796636000\" (2026-12-07 09:33:20 UTC, 10 h after the run ended)")
        #expect(
            ReportWording.withDates("got 1796599820000, want 0", now: Self.now)
                == "got 1796599820000 (2026-12-06 23:30:20 UTC, 3 min before the run ended), want 0")
        #expect(
            ReportWording.withDates("1796600000", now: Self.now).hasSuffix(
                "(2026-12-06 23:33:20 UTC, as the run ended)"))
        // A duration of ten digits (30 days in ms), a token, an ID with digits and a longer number stay as they are.
        for text in ["(2592000019)", "abc1796636000", "1796636000abc", "17966360001", "id-1796636000x", "1796636000.5"]
        {
            #expect(ReportWording.withDates(text, now: Self.now) == text, "\(text)")
        }
    }

    /// The console, the HTML and the Markdown all print the rule above the actual value, dated.
    @Test func everyFormatPrintsTheRuleAboveTheDatedActualValue() {
        var run = F.mixed
        run.scenarios[0].failures[0].expected = "\"0\""
        run.scenarios[0].failures[0].actual = "\"1790003602\""
        run.scenarios[0].failures[0].check = "scenarios[0].steps[1] expectPush to b-phone"
        let dated = "\"1790003602\" (2026-09-21 15:13:22 UTC, 59 min after the run ended)"
        let console = ConsoleReport.summary(run, style: ConsoleStyle(colors: false))
        #expect(console.contains("     must be: \"0\"\n     actual:  \(dated)\n"), "\(console)")
        #expect(console.contains("failed in 1 scenario: step 2 expectPush to b-phone"))
        let html = HTMLReport.render(run)
        #expect(
            html.contains(
                "<th>must be:</th><td><pre>&quot;0&quot;</pre></td></tr><tr><th>actual:</th><td><pre>\(ReportText.html(dated))</pre>"
            ))
        let md = MarkdownReport.render(run)
        #expect(md.contains("- must be: \"0\" — actual: \(ReportText.markdownCell(dated))"))
        let junit = JUnitReport.failureText(run.scenarios[0], now: run.finishedAt)
        #expect(
            junit.contains("[MUST] CALLX-APNS-5: step 2 expectPush to b-phone\n  must be: \"0\"\n  actual: \(dated)"))
        for text in [console, html, md, junit] {
            #expect(!text.contains("scenarios[0]") && !text.contains("expected: ") && !text.contains("<th>expected"))
        }
    }
}
