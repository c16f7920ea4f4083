import Foundation
import Testing

@testable import Reports

@Suite struct JSONReportTests {
    typealias F = ReportFixtures

    @Test func roundTripsAndCarriesDerivedFields() throws {
        let text = JSONReport.render(F.mixed)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "ringcheck.run/1")
        #expect(object["verdict"] as? String == "nonConformant")
        #expect(object["exitCode"] as? Int == 1)
        #expect(object["startedAt"] as? String == "2026-09-21T14:13:20.125Z")
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary["mustFailures"] == 1 && summary["shouldFailures"] == 1 && summary["scenarios"] == 6)
        let requirements = try #require(object["requirements"] as? [[String: Any]])
        #expect(requirements.map { $0["verdict"] as? String } == ["fail", "fail", "notApplicable", "notEvidenced"])
        let scenarios = try #require(object["scenarios"] as? [[String: Any]])
        #expect(scenarios[2]["status"] as? String == "notApplicable")
        #expect(scenarios[2]["reason"] as? String == "target has no fault injection")

        let decoded = try JSONReport.decode(Data(text.utf8))
        #expect(decoded == F.mixed.redacted())
        #expect(JSONReport.render(decoded) == text)
    }

    @Test func evidenceIsRedacted() {
        let text = JSONReport.render(F.mixed)
        #expect(!text.contains("eyJhbGciOiJFUzI1NiJ9"))
        #expect(!text.contains("abcdefghijklmnop"))
        #expect(text.contains("[redacted]"))
    }

    @Test func otherSchemasAreRefused() {
        let text = JSONReport.render(F.mixed).replacingOccurrences(of: "ringcheck.run/1", with: "ringcheck.run/2")
        #expect(throws: DecodingError.self) { try JSONReport.decode(Data(text.utf8)) }
    }
}
