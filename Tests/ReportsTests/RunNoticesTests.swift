import Foundation
import TestSupport
import Testing

@testable import Reports

/// A run's notices (a token clean-up that failed): said once in every report, never a verdict.
@Suite struct RunNoticesTests {
    typealias F = ReportFixtures
    static let notice = "token clean-up failed for 53 of 53 registrations: DELETE /v1/x answered 404 ×53"

    var run: RunResult {
        var r = F.mixed
        r.notices = [Self.notice]
        return r
    }

    @Test func everyReportSaysItOnceAndTheVerdictIsUnchanged() throws {
        #expect(run.verdict == F.mixed.verdict && run.exitCode == F.mixed.exitCode)
        let json = JSONReport.render(run)
        let decoded = try JSONReport.decode(Data(json.utf8))
        #expect(decoded.notices == [Self.notice])
        #expect(ReportConformance.jsonViolations(json) == [])
        #expect(ReportConformance.junitViolations(JUnitReport.render(run)) == [])
        #expect(!JSONReport.render(F.mixed).contains("\"notices\""), "absent when there are none")
        let texts = [
            ConsoleReport.summary(run, style: ConsoleStyle(colors: false)), MarkdownReport.render(run),
            HTMLReport.render(run),
            JUnitReport.render(run),
        ]
        for text in texts {
            #expect(text.components(separatedBy: "token clean-up failed for 53").count == 2, "\(text)")
        }
        #expect(ConsoleReport.summary(run, style: ConsoleStyle(colors: false)).contains("Warning: " + Self.notice))
    }

    @Test func mergedPartsKeepEachNoticeOnce() throws {
        var one = F.run([F.scenario("a.b", .pass, requirements: ["CALLX-ARB-1"])], shard: Shard(index: 1, count: 2))
        var two = F.run([F.scenario("c.d", .pass, requirements: ["CALLX-ARB-1"])], shard: Shard(index: 2, count: 2))
        one.notices = [Self.notice]
        two.notices = [Self.notice, "another"]
        #expect(try ReportMerger.merge([one, two]).notices == [Self.notice, "another"])
    }
}
