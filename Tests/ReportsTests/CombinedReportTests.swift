import Foundation
import TestSupport
import Testing

@testable import Reports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `run --profile all` joins its profiles' runs into one JUnit file and one summary, naming each profile.
@Suite struct CombinedReportTests {
    typealias F = ReportFixtures

    static func runs() -> [ProfileRun] {
        var dial = F.run([F.scenario("wake.ok", .pass, requirements: ["CALLX-ARB-1"])])
        dial.profile = "dialstack"
        dial.suite = SuiteDescription(id: "dialstack", version: "0.1.0", title: "DialStack")
        return [
            ProfileRun(profile: "callx", exitCode: 1, result: F.mixed, reportDir: "reports/callx"),
            ProfileRun(profile: "dialstack", exitCode: 0, result: dial, reportDir: "reports/dialstack"),
            ProfileRun(profile: "onesignal", exitCode: 2, result: nil, reportDir: "reports/onesignal"),
        ]
    }

    @Test func junitHasATestsuitePerProfile() throws {
        let xml = CombinedReport.junit(Self.runs())
        #expect(ReportConformance.junitViolations(xml).isEmpty, "\(ReportConformance.junitViolations(xml))")
        let doc = try XMLDocument(data: Data(xml.utf8))
        let suites = try doc.nodes(forXPath: "/testsuites/testsuite/@name").compactMap(\.stringValue)
        #expect(suites == ["callx", "dialstack", "onesignal"])
        let root = try #require(doc.rootElement())
        // callx: 6 scenarios (1 MUST failure; the flaky SHOULD is a skipped warning; 2 errors); dialstack 1; onesignal 1 error.
        #expect(root.attribute(forName: "tests")?.stringValue == "8")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "3")
        #expect(
            root.attribute(forName: "name")?.stringValue == "ringcheck run --profile all: callx, dialstack, onesignal")
        let missing = try doc.nodes(forXPath: "//testsuite[@name='onesignal']/testcase/error/@message").first
        #expect(
            missing?.stringValue == "onesignal: configuration error (exit 2) and no report.json in reports/onesignal")
        let profile = try doc.nodes(
            forXPath: "//testsuite[@name='dialstack']/properties/property[@name='profile']/@value")
        #expect(profile.first?.stringValue == "dialstack")
    }

    @Test func summaryNamesEachProfileOnceWithWhatFailed() {
        let md = CombinedReport.markdown(Self.runs(), exitCode: 2)
        #expect(md.hasPrefix("## ringcheck run --profile all: ⚠️ configuration error (exit 2)\n"))
        #expect(
            md.contains(
                "| callx | ❌ non-conformant (exit 1) | pass 1 · fail 1 · flaky 1 · notApplicable 1 · error 1 · timeout 1 | CALLX-APNS-5 | CALLX-ARB-1 | `reports/callx` |"
            ))
        #expect(md.contains("| dialstack | ✅ conformant | pass 1 | – | – | `reports/dialstack` |"))
        #expect(md.contains("| onesignal | ⚠️ configuration error (exit 2) | – | – | – | `reports/onesignal` |"))
        #expect(md.contains("### callx: what failed"))
        #expect(!md.contains("### dialstack: what failed") && !md.contains("Verdict:"))
    }
}
