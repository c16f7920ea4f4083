import Foundation
import TestSupport
import Testing

/// The reports of real runs of the embedded Callx reference read in seconds: one MUST defect seen in
/// most scenarios is one entry of a short summary.md, a one-scenario run prints its defect once in plain
/// words, and a SHOULD-only run looks like a warning everywhere.
@Suite struct ReportReadabilityRunTests {
    static let plain = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }

    static func lines(_ text: String) -> Int { text.split(separator: "\n", omittingEmptySubsequences: false).count }

    /// apns-expiration-30 breaks CALLX-APNS-5 in over 30 scenarios: summary.md was ~400 lines and 25 KB.
    @Test func oneMUSTDefectIsOneEntryOfASixtyLineSummary() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "--reference-defect", "apns-expiration-30", "--format", "markdown,html", "--report-dir", dir.path],
            timeout: 240, environment: Self.plain)
        #expect(r.status == 1, "\(r.stdout.suffix(2000))\n\(r.stderr)")
        let summary = try String(contentsOfFile: dir.file("summary.md"), encoding: .utf8)
        #expect(Self.lines(summary) <= 60, "\(summary)")
        #expect(summary.components(separatedBy: "**❌ MUST CALLX-APNS-5** failed in").count == 2, "\(summary)")
        #expect(summary.contains("- also in ("))
        #expect(summary.contains("<details><summary>✅ "))
        let html = try String(contentsOfFile: dir.file("report.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "CALLX-APNS-5 failed in").count == 2)
        // The console too: one group for the requirement.
        #expect(r.stdout.components(separatedBy: "── MUST CALLX-APNS-5 failed in").count == 2, "\(r.stdout)")
    }

    @Test func aOneScenarioRunPrintsItsDefectOnceInPlainWords() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "payload.apns-invitation", "--reference-defect", "apns-expiration-30", "--format",
                "markdown,html", "--report-dir", dir.path,
            ], timeout: 120, environment: Self.plain)
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "CALLX-APNS-5 failed in").count == 2, "\(r.stdout)")
        #expect(r.stdout.contains("1 scenario: 1 fail in "))
        // The rule as a rule, the header's Unix time as a date.
        #expect(r.stdout.contains("     must be: "), "\(r.stdout)")
        #expect(r.stdout.contains("\n   required: The apns-expiration header is 0"), "\(r.stdout)")
        #expect(
            r.stdout.range(of: #"apns-expiration [0-9]{10} \(20[0-9-]{8} [0-9:]{8} UTC, "#, options: .regularExpression)
                != nil)
        let summary = try String(contentsOfFile: dir.file("summary.md"), encoding: .utf8)
        let html = try String(contentsOfFile: dir.file("report.html"), encoding: .utf8)
        for text in [r.stdout, summary] {
            #expect(
                !text.contains("invariant ") && !text.contains("scenarios[") && !text.contains("every matcher holds"))
            #expect(!text.contains("expected: \"0\", got") || text.contains("must be:"))
        }
        #expect(summary.components(separatedBy: "CALLX-APNS-5** failed in").count == 2, "\(summary)")
        #expect(summary.contains("\n- required: The apns-expiration header is 0"), "\(summary)")
        #expect(html.components(separatedBy: "CALLX-APNS-5 failed in").count == 2)
        #expect(html.contains("<p class=\"statement\">required: The apns-expiration header is 0"))
        for text in [r.stdout, summary, html] { #expect(!text.contains("requirement: The "), "\(text)") }
    }

    /// long-lived-media breaks only CALLX-MEDIA-2, a SHOULD: exit 0 and a warning's look in every report.
    @Test func aShouldOnlyRunLooksLikeAWarningEverywhere() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "media.short-lived-credentials", "--reference-defect", "long-lived-media", "--report-dir",
                dir.path,
            ], timeout: 120, environment: Self.plain)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("⚠ WARN    media.short-lived-credentials"), "\(r.stdout)")
        #expect(!r.stdout.contains("✘ FAIL"))
        #expect(r.stdout.contains("Verdict: ⚠ conformant with 1 SHOULD warning (exit 0)"))
        let html = try String(contentsOfFile: dir.file("report.html"), encoding: .utf8)
        #expect(html.contains("verdict v-conformant v-warning") && html.contains("what-failed warn"))
        #expect(html.contains("badge r-warning\">warning</span>") && !html.contains("badge r-fail"))
        let summary = try String(contentsOfFile: dir.file("summary.md"), encoding: .utf8)
        #expect(summary.contains(": ⚠️ conformant with 1 SHOULD warning (exit 0)"))
        let junit = try String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<skipped message=\"SHOULD warning (does not fail the run): CALLX-MEDIA-2 (SHOULD)"))
        #expect(junit.contains("<property name=\"shouldWarnings\" value=\"CALLX-MEDIA-2\"/>"))
    }
}
