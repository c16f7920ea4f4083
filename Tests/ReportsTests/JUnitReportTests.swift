import Foundation
import Testing

@testable import Reports

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct JUnitReportTests {
    typealias F = ReportFixtures

    @Test func parsesBackWithOneTestcasePerScenario() throws {
        let xml = JUnitReport.render(F.mixed)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let cases = try doc.nodes(forXPath: "//testcase")
        #expect(cases.count == 6)
        let suite = try #require(try doc.nodes(forXPath: "/testsuites/testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "tests")?.stringValue == "6")
        // The flaky scenario only broke a SHOULD: a warning of this lenient run, so skipped, not a failure.
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(suite.attribute(forName: "errors")?.stringValue == "2")
        #expect(suite.attribute(forName: "skipped")?.stringValue == "2")
        let verdict = try doc.nodes(forXPath: "//testsuite/properties/property[@name='verdict']/@value").first
        #expect(verdict?.stringValue == "non-conformant")

        let failing = try #require(try doc.nodes(forXPath: "//testcase[@name='push.expiration']").first as? XMLElement)
        let out = try failing.nodes(forXPath: "system-out").first?.stringValue ?? ""
        #expect(out.contains("requirements: CALLX-APNS-5 (MUST)"))
        let failure = try #require(failing.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "type")?.stringValue == "MUST")
        #expect(failure.attribute(forName: "message")?.stringValue?.contains("CALLX-APNS-5 (MUST)") == true)
        let text = failure.stringValue ?? ""
        #expect(text.contains("must be: 0\n  actual: 3600"))
        #expect(text.contains("Re-run: ringcheck run push.expiration --suite callx"))
        #expect(!text.contains("eyJhbGciOiJFUzI1NiJ9"))

        let skipped = try doc.nodes(forXPath: "//testcase[@name='tokens.cleanup']/skipped/@message").first
        #expect(skipped?.stringValue == "not applicable: target has no fault injection")
        let timeout = try doc.nodes(forXPath: "//testcase[@name='basic.timeout']/error/@type").first
        #expect(timeout?.stringValue == "timeout")
    }

    @Test func hostileTextStaysWellFormed() throws {
        var run = F.mixed
        run.target = F.hostile
        run.scenarios[0].title = F.hostile
        run.scenarios[0].failures[0].actual = F.hostile
        run.scenarios[0].timeline[0].summary = F.hostile
        let xml = JUnitReport.render(run)
        #expect(!xml.contains("<script>"))
        let doc = try XMLDocument(data: Data(xml.utf8))
        let out = try doc.nodes(forXPath: "//testcase[@name='push.expiration']/system-out")
        #expect(out.first?.stringValue?.hasPrefix("<script>alert('x')</script> & \"q\"") == true)
    }
}
