import Foundation
import Testing

@testable import Reports

@Suite struct VerdictTests {
    typealias F = ReportFixtures

    @Test func mustFailureIsNonConformant() {
        let r = F.run([
            F.scenario("a.b", .fail, requirements: ["CALLX-APNS-5"], failures: [F.failure("CALLX-APNS-5", .must)])
        ])
        #expect(r.verdict == .nonConformant && r.exitCode == 1)
    }

    @Test func shouldFailuresOnlyAreConformantWithWarnings() {
        let r = F.run([
            F.scenario("a.b", .fail, requirements: ["CALLX-ARB-1"], failures: [F.failure("CALLX-ARB-1", .should)]),
            F.scenario("a.c", .pass, requirements: ["CALLX-APNS-5"]),
        ])
        #expect(r.verdict == .conformant && r.exitCode == 0)
        #expect(r.warnings.count == 1)
    }

    @Test func strictRunsFailOnShoulds() throws {
        var r = F.run([
            F.scenario("a.b", .fail, requirements: ["CALLX-ARB-1"], failures: [F.failure("CALLX-ARB-1", .should)])
        ])
        r.strict = true
        #expect(r.verdict == .nonConformant && r.exitCode == 1)
        #expect(ConsoleReport.summary(r, style: ConsoleStyle(colors: false)).contains("non-conformant (strict"))
        #expect(MarkdownReport.render(r).contains("non-conformant (strict"))
        let decoded = try JSONReport.decode(Data(JSONReport.render(r).utf8))
        #expect(decoded.strict && decoded.verdict == .nonConformant)
        r.scenarios = [F.scenario("a.c", .pass, requirements: ["CALLX-ARB-1"])]
        #expect(r.verdict == .conformant)
    }

    @Test func harnessProblemsWithoutMustFailureAreInconclusive() {
        for status in [ScenarioStatus.error(message: "x"), .timeout(message: "y")] {
            let r = F.run([F.scenario("a.b", .pass, requirements: []), F.scenario("a.c", status, requirements: [])])
            #expect(r.verdict == .inconclusive && r.exitCode == 3)
        }
        // A MUST failure outweighs an error.
        #expect(F.mixed.verdict == .nonConformant)
    }

    @Test func nothingJudgedIsInconclusive() {
        #expect(F.run([]).verdict == .inconclusive)
        #expect(F.run([F.scenario("a.b", .notApplicable(reason: "r"), requirements: [])]).exitCode == 3)
    }

    @Test func flakyCountsAsFailure() {
        let r = F.run([
            F.scenario("a.b", .flaky, requirements: ["CALLX-APNS-5"], failures: [F.failure("CALLX-APNS-5", .must)])
        ])
        #expect(r.verdict == .nonConformant)
    }

    @Test func requirementVerdictsAggregateScenarios() {
        let results = Dictionary(uniqueKeysWithValues: F.mixed.requirementResults.map { ($0.requirement.id, $0) })
        #expect(results["CALLX-APNS-5"]?.verdict == .fail)
        #expect(results["CALLX-ARB-1"]?.verdict == .fail)
        #expect(results["CALLX-ARB-1"]?.scenarios.count == 4)
        #expect(results["CALLX-TOK-7"]?.verdict == .notApplicable)
        #expect(results["CALLX-SEC-3"]?.verdict == .notEvidenced)

        let passing = F.run([
            F.scenario("a.b", .pass, requirements: ["CALLX-ARB-1", "CALLX-APNS-5"]),
            F.scenario("a.c", .error(message: "down"), requirements: ["CALLX-APNS-5"]),
        ])
        let byID = Dictionary(uniqueKeysWithValues: passing.requirementResults.map { ($0.requirement.id, $0.verdict) })
        #expect(byID["CALLX-ARB-1"] == .pass)
        #expect(byID["CALLX-APNS-5"] == .inconclusive)
    }

    /// A scenario that failed on one requirement ran the checks of the others it lists: they pass, they
    /// are not inconclusive.
    @Test func aScenarioFailedElsewhereStillPassesItsOtherRequirements() {
        let r = F.run([
            F.scenario(
                "a.b", .fail, requirements: ["CALLX-ARB-1", "CALLX-APNS-5"],
                failures: [F.failure("CALLX-APNS-5", .must)])
        ])
        let byID = Dictionary(uniqueKeysWithValues: r.requirementResults.map { ($0.requirement.id, $0.verdict) })
        #expect(byID["CALLX-APNS-5"] == .fail)
        #expect(byID["CALLX-ARB-1"] == .pass)
    }

    /// Counts are of failed requirements: twelve failed checks of one requirement are one failure.
    @Test func failedRequirementsAreCountedOnce() throws {
        let r = F.run([
            F.scenario(
                "a.b", .fail, requirements: ["CALLX-APNS-5", "CALLX-ARB-1"],
                failures: Array(repeating: F.failure("CALLX-APNS-5", .must), count: 12)
                    + [F.failure("CALLX-ARB-1", .should), F.failure("CALLX-ARB-1", .should)]),
            F.scenario("a.c", .fail, requirements: ["CALLX-APNS-5"], failures: [F.failure("CALLX-APNS-5", .must)]),
        ])
        #expect(r.failedRequirements(.must) == ["CALLX-APNS-5"])
        #expect(r.failedRequirements(.should) == ["CALLX-ARB-1"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReport.render(r).utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary["mustFailures"] == 1 && summary["shouldFailures"] == 1)
    }
}
