import Foundation
import TestSupport
import Testing

/// The reports of a conforming and of a defective embedded run match `suites/report.schema.json` and
/// `Tests/Schemas/junit-10.xsd` (every other `run` the tests make is checked the same way by
/// `RingcheckBinary.run`), and the HTML leads with what failed.
@Suite struct ReportSchemaRunTests {
    @Test func conformingAndDefectiveRunsWriteReportsThatMatchTheirSchemas() async throws {
        let dir = TemporaryDirectory()
        let good = try await RingcheckBinary.runSuite(
            ["run", "basic.*", "payload.*", "--report-dir", dir.file("good")], timeout: 120)
        #expect(good.status == 0, "\(good.stdout.suffix(2000))")
        try ReportConformance.checkDirectory(dir.file("good"))
        let bad = try await RingcheckBinary.runSuite(
            [
                "run", "basic.*", "payload.*", "--reference-defect", "apns-expiration-30", "--report-dir",
                dir.file("bad"),
            ],
            timeout: 120)
        #expect(bad.status == 1, "\(bad.stdout.suffix(2000))")
        try ReportConformance.checkDirectory(dir.file("bad"))
        let json = try String(contentsOfFile: dir.file("bad/report.json"), encoding: .utf8)
        #expect(json.contains("\"requirement\" : \"CALLX-APNS-5\""))
        let html = try String(contentsOfFile: dir.file("bad/report.html"), encoding: .utf8)
        let whatFailed = try #require(html.range(of: "<h2>What failed</h2>"))
        let firstPass = try #require(html.range(of: "<span class=\"badge st-pass\">"))
        #expect(whatFailed.lowerBound < firstPass.lowerBound)
        #expect(html[whatFailed.upperBound...].prefix(4000).contains("CALLX-APNS-5"))
        let summary = try String(contentsOfFile: dir.file("bad/summary.md"), encoding: .utf8)
        #expect(summary.contains("### What failed") && summary.contains("not touched by the selected scenarios"))
    }
}
