import Foundation
import TestSupport
import Testing

@testable import Reports

/// Every report the renderers write matches its schema: `report.json` against `suites/report.schema.json`
/// (and the cross-field rules of REPORT-SCHEMA.md), `junit.xml` against `Tests/Schemas/junit-10.xsd`; and
/// both checkers reject reports with exactly the defects they exist for.
@Suite struct ReportSchemaTests {
    typealias F = ReportFixtures

    static var runs: [(String, RunResult)] {
        var hostile = F.mixed
        hostile.target = F.hostile
        hostile.scenarios[0].failures[0].actual = F.hostile
        var strict = F.warningOnly
        strict.strict = true
        var aborted = F.run([], shard: Shard(index: 1, count: 2, selection: ["a.b", "c.d"]))
        aborted.aborted = "the backend at http://127.0.0.1:9 does not answer"
        aborted.notRun = [
            NotRunScenario(
                id: "a.b", title: "A", requirements: ["CALLX-ARB-1"], reason: "the run stopped before any scenario",
                rerunCommand: "ringcheck run a.b")
        ]
        var merged = F.mixed
        merged.merge = MergeFacts(
            reports: 2, shardCount: 3, shards: [1, 2], missingShards: [3], interrupted: ["shard 2/3: SIGINT"])
        return [
            ("mixed", F.mixed), ("all pass", F.run([F.scenario("a.b", .pass, requirements: ["CALLX-ARB-1"])])),
            ("SHOULD warning", F.warningOnly), ("strict", strict), ("interrupted", F.interrupted),
            ("hostile", hostile), ("sharded", F.run(F.mixed.scenarios, shard: Shard(index: 1, count: 2))),
            ("aborted", aborted), ("merged with a shard missing", merged),
        ]
    }

    @Test(arguments: runs.map(\.0)) func jsonAndJUnitMatchTheirSchemas(_ name: String) throws {
        let run = try #require(Self.runs.first { $0.0 == name }?.1)
        #expect(ReportConformance.jsonViolations(JSONReport.render(run)) == [])
        #expect(ReportConformance.junitViolations(JUnitReport.render(run)) == [])
    }

    @Test func theJSONCheckCatchesAFailureWithoutRequirementAndCountsPerCheck() {
        var run = F.mixed
        run.scenarios[0].failures.append(run.scenarios[0].failures[0])
        // Two failed checks of one requirement: one failed requirement, and the schema check agrees.
        #expect(ReportConformance.jsonViolations(JSONReport.render(run)) == [])
        run.scenarios[0].failures[1].requirement = nil
        let missing = ReportConformance.jsonViolations(JSONReport.render(run))
        #expect(missing.contains { $0.contains("required member 'requirement' is missing") }, "\(missing)")
        let miscounted = JSONReport.render(F.mixed).replacingOccurrences(
            of: "\"mustFailures\" : 1", with: "\"mustFailures\" : 2")
        #expect(
            ReportConformance.jsonViolations(miscounted).contains { $0.contains("summary.mustFailures is 2") })
        let unknownStatus = JSONReport.render(F.mixed).replacingOccurrences(
            of: "\"status\" : \"timeout\"", with: "\"status\" : \"stuck\"")
        #expect(ReportConformance.jsonViolations(unknownStatus).contains { $0.contains("\"stuck\" is not one of") })
    }

    @Test func theJUnitCheckCatchesWhatCIParsersReject() {
        let good = JUnitReport.render(F.mixed)
        let propertiesInCase = good.replacingOccurrences(
            of: "<system-out>", with: "<properties><property name=\"a\" value=\"b\"/></properties><system-out>")
        #expect(
            ReportConformance.junitViolations(propertiesInCase).contains { $0.contains("do not fit <testcase>") })
        let skippedOnRoot = good.replacingOccurrences(of: "<testsuites name=", with: "<testsuites skipped=\"1\" name=")
        #expect(
            ReportConformance.junitViolations(skippedOnRoot).contains {
                $0.contains("attribute skipped is not allowed on <testsuites>")
            })
        let twoOutcomes = good.replacingOccurrences(of: "<skipped ", with: "<failure/><skipped ")
        #expect(!ReportConformance.junitViolations(twoOutcomes).isEmpty)
        let badTime = good.replacingOccurrences(of: "time=\"2.500\"", with: "time=\"2,5s\"")
        #expect(ReportConformance.junitViolations(badTime).contains { $0.contains("is not a SECONDS") })
    }
}
