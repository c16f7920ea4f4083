import Foundation
import Testing

@testable import Reports

@Suite struct ConsoleReportTests {
    typealias F = ReportFixtures

    @Test func colorsFollowTerminalAndNoColor() {
        #expect(ConsoleStyle.detect(environment: [:], isTerminal: true).colors)
        #expect(!ConsoleStyle.detect(environment: [:], isTerminal: false).colors)
        #expect(!ConsoleStyle.detect(environment: ["NO_COLOR": "1"], isTerminal: true).colors)
        #expect(ConsoleStyle.detect(environment: ["NO_COLOR": ""], isTerminal: true).colors)
        #expect(!ConsoleStyle.detect(environment: ["TERM": "dumb"], isTerminal: true).colors)
    }

    @Test func progressLines() {
        let plain = ConsoleStyle(colors: false)
        let lines = F.mixed.scenarios.map { ConsoleReport.progressLine($0, style: plain) }
        #expect(lines[0] == "✘ FAIL    push.expiration  (812ms)")
        #expect(lines[1] == "✔ pass    arbitration.race  (812ms)")
        #expect(lines[2] == "○ n/a     tokens.cleanup  (812ms) — target has no fault injection")
        // Flaky on a SHOULD only: a warning of this lenient run.
        #expect(lines[3].hasPrefix("⚠ FLAKY   arbitration.late"))
        #expect(!lines.joined().contains("\u{1B}"))
        let colored = ConsoleReport.progressLine(F.mixed.scenarios[0], style: ConsoleStyle(colors: true))
        #expect(colored.hasPrefix("\u{1B}[31m✘ FAIL"))
    }

    @Test func failuresShowExpectedActualEvidenceAndRerun() {
        var run = F.mixed
        run.scenarios[0].failures[0].actual = F.hostile
        let text = ConsoleReport.summary(run, style: ConsoleStyle(colors: false), verbose: true)
        #expect(text.contains("MUST CALLX-APNS-5: VoIP push to b-phone has apns-expiration 0"))
        // The rule as a rule, right above the actual value.
        #expect(text.contains("     must be: 0\n     actual:  <script>"))
        #expect(text.contains("push: POST /3/device/abc → 200"))
        #expect(text.contains("authorization: [redacted]"))
        #expect(text.contains("re-run: ringcheck run push.expiration --suite callx"))
        #expect(text.contains("Verdict: non-conformant (exit 1)"))
        #expect(
            text.contains(
                "ringcheck 0.1.0 · profile callx · suite callx 0.1.0 · target embedded reference backend · 2026-09-21T14:13:20.125Z"
            ))
        #expect(text.contains("MUST failed: CALLX-APNS-5"))
        #expect(!text.contains("\u{1B}"))
    }
}
