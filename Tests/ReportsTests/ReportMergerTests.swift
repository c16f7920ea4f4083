import Foundation
import TestSupport
import Testing

@testable import Reports

@Suite struct ReportMergerTests {
    typealias F = ReportFixtures

    func shards() -> (RunResult, RunResult) {
        var one = F.run([F.scenario("b.two", .pass, requirements: ["CALLX-ARB-1"])], shard: Shard(index: 1, count: 2))
        var two = F.run(
            [F.scenario("a.one", .fail, requirements: ["CALLX-APNS-5"], failures: [F.failure("CALLX-APNS-5", .must)])],
            shard: Shard(index: 2, count: 2))
        one.finishedAt = F.start.addingTimeInterval(1)
        two.startedAt = F.start.addingTimeInterval(0.5)
        two.finishedAt = F.start.addingTimeInterval(4)
        return (one, two)
    }

    @Test func joinsShardsInAnyOrder() throws {
        let (one, two) = shards()
        let merged = try ReportMerger.merge([one, two])
        #expect(merged.scenarios.map(\.id) == ["a.one", "b.two"])
        #expect(merged.startedAt == F.start && merged.finishedAt == F.start.addingTimeInterval(4))
        #expect(merged.shard == nil)
        #expect(merged.merge == MergeFacts(reports: 2, shardCount: 2, shards: [1, 2]))
        #expect(merged.verdict == .nonConformant)
        #expect(try ReportMerger.merge([two, one]) == merged)
    }

    @Test func refusesMismatchedOrOverlappingShards() {
        let (one, two) = shards()
        #expect(throws: ReportMergeError.self) { try ReportMerger.merge([one, one]) }
        var other = two
        other.suite.version = "9"
        #expect(throws: ReportMergeError.self) { try ReportMerger.merge([one, other]) }
        other = two
        other.target = "https://elsewhere"
        #expect(throws: ReportMergeError.self) { try ReportMerger.merge([one, other]) }
        other = two
        other.scenarios = one.scenarios
        other.shard = Shard(index: 2, count: 2)
        let error = #expect(throws: ReportMergeError.self) { try ReportMerger.merge([one, other]) }
        #expect(error?.message.contains("b.two appears in part 1 and part 2") == true)
        #expect(throws: ReportMergeError.self) { try ReportMerger.merge([]) }
        other = two
        other.strict = true
        let mixed = #expect(throws: ReportMergeError.self) { try ReportMerger.merge([one, other]) }
        #expect(mixed?.message.contains("--strict") == true)
    }

    @Test func mergesJSONFiles() throws {
        let dir = TemporaryDirectory()
        let (one, two) = shards()
        let a = try dir.write("1.json", JSONReport.render(one))
        let b = try dir.write("2.json", JSONReport.render(two))
        let merged = try ReportMerger.merge(files: [a, b])
        #expect(merged.scenarios.count == 2)
        let bad = try dir.write("bad.json", "{\"schema\": \"other\"}")
        let error = #expect(throws: ReportMergeError.self) { try ReportMerger.merge(files: [a, bad]) }
        #expect(error?.message.hasPrefix(bad + ": not a ringcheck.run/1 report") == true)
    }

    @Test func writesEveryFormat() throws {
        let dir = TemporaryDirectory()
        let paths = try ReportFormat.write(F.mixed, formats: ReportFormat.allCases, to: dir.path + "/out")
        #expect(
            paths.map { ($0 as NSString).lastPathComponent } == [
                "junit.xml", "report.json", "report.html", "summary.md",
            ])
        #expect(ReportFormat.console.render(F.mixed).contains("Verdict: non-conformant"))
    }
}
