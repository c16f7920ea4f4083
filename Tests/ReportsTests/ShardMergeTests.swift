import Foundation
import TestSupport
import Testing

@testable import Reports

/// `report merge` of shards: a set with a shard missing (or interrupted) is never green, the shard facts
/// come through, and shards that cannot be one split are refused naming why.
@Suite struct ShardMergeTests {
    typealias F = ReportFixtures

    static let selection = ["a.one", "b.two", "c.three", "d.four", "e.five", "f.six", "g.seven"]

    /// Shard `index` of `count` over `selection`, each of its scenarios passed (the listed ones failed a MUST).
    static func shard(_ index: Int, of count: Int, failing: Set<String> = [], selection: [String]? = selection)
        -> RunResult
    {
        let ids = Shard.scenarios(of: index, count: count, in: selection ?? Self.selection)
        let scenarios = ids.map { id in
            failing.contains(id)
                ? F.scenario(
                    id, .fail, requirements: ["CALLX-APNS-5"], failures: [F.failure("CALLX-APNS-5", .must)])
                : F.scenario(id, .pass, requirements: ["CALLX-ARB-1"])
        }
        return F.run(scenarios, shard: Shard(index: index, count: count, selection: selection))
    }

    @Test func aMissingShardIsInconclusiveNamingItAndItsScenarios() throws {
        let merged = try ReportMerger.merge([Self.shard(1, of: 3), Self.shard(2, of: 3)])
        #expect(merged.verdict == .inconclusive)
        #expect(merged.exitCode == 3)
        #expect(merged.merge == MergeFacts(reports: 2, shardCount: 3, shards: [1, 2], missingShards: [3]))
        // Shard 3 of 3 is dealt the third, sixth, … of the sorted selection.
        #expect(merged.notRun.map(\.id) == ["c.three", "f.six"])
        #expect(merged.notRun.allSatisfy { $0.reason == "shard 3/3 missing: no report.json of it was merged" })
        // The re-run command keeps the shards' flags.
        #expect(merged.notRun.first?.rerunCommand == "ringcheck run c.three --suite callx")
        #expect(merged.runProblems.map(\.title) == ["shard 3/3 missing"])
        // Every format says it: JUnit with an error testcase, so a gate that reads only JUnit fails too.
        let junit = JUnitReport.render(merged)
        #expect(junit.contains("<error type=\"run\" message=\"no report.json of shard 3/3 was merged"))
        #expect(junit.contains("errors=\"1\""))
        #expect(ReportConformance.junitViolations(junit) == [])
        let json = JSONReport.render(merged)
        #expect(ReportConformance.jsonViolations(json) == [])
        let read = try JSONReport.decode(Data(json.utf8))
        #expect(read.merge == merged.merge && read.notRun == merged.notRun && read.verdict == .inconclusive)
        #expect(MarkdownReport.render(merged).contains("shards 1, 2 of 3 merged; missing: shard 3/3"))
        #expect(HTMLReport.render(merged).contains("Not judged: shard 3/3 missing"))
        #expect(ConsoleReport.summary(merged, style: ConsoleStyle(colors: false)).contains("Not run: 2 scenarios"))
    }

    @Test func aMUSTFailureInTheShardsGivenStillMakesTheMergeNonConformant() throws {
        let merged = try ReportMerger.merge([Self.shard(2, of: 3, failing: ["b.two"])])
        #expect(merged.verdict == .nonConformant)
        #expect(merged.merge?.missingShards == [1, 3])
        #expect(merged.notRun.count == 5)
    }

    @Test func theWholeSetIsConformantAndSaysWhatWasMerged() throws {
        let merged = try ReportMerger.merge([Self.shard(3, of: 3), Self.shard(1, of: 3), Self.shard(2, of: 3)])
        #expect(merged.verdict == .conformant)
        #expect(merged.scenarios.map(\.id) == Self.selection)
        #expect(merged.notRun.isEmpty)
        #expect(merged.merge?.description == "shards 1, 2, 3 of 3 merged")
    }

    @Test func anOlderReportWithoutTheSelectionStillCountsItsMissingShard() throws {
        let merged = try ReportMerger.merge([Self.shard(1, of: 2, selection: nil)])
        #expect(merged.verdict == .inconclusive)
        #expect(merged.merge?.missingShards == [2])
        #expect(merged.notices.contains { $0.contains("cannot be named") })
    }

    @Test func anInterruptedShardMakesTheMergeInconclusiveWithExitThree() throws {
        var two = Self.shard(2, of: 2)
        two.interruption = Interruption(signal: "SIGINT", exitCode: 130)
        let merged = try ReportMerger.merge([Self.shard(1, of: 2), two])
        #expect(merged.interruption == nil)
        #expect(merged.merge?.interrupted == ["shard 2/2: SIGINT"])
        #expect(merged.verdict == .inconclusive)
        // The report says what the process exits with.
        #expect(merged.exitCode == 3)
        #expect(ReportConformance.jsonViolations(JSONReport.render(merged)) == [])
    }

    @Test func aShardThatStoppedBeforeAnyScenarioKeepsTheMergeInconclusive() throws {
        var two = Self.shard(2, of: 2)
        two.notRun = two.scenarios.map {
            NotRunScenario(
                id: $0.id, title: $0.title, requirements: $0.requirements,
                reason: "the run stopped before any scenario",
                rerunCommand: $0.rerunCommand)
        }
        two.scenarios = []
        two.aborted = "the backend at https://api.example does not answer"
        let merged = try ReportMerger.merge([Self.shard(1, of: 2), two])
        #expect(merged.verdict == .inconclusive)
        #expect(merged.aborted == "shard 2/2: the backend at https://api.example does not answer")
        #expect(merged.notRun.count == two.notRun.count)
    }

    @Test func shardsOfNoOneSplitAreRefusedNamingWhy() {
        func refusal(_ parts: [RunResult]) -> String {
            let error = #expect(throws: ReportMergeError.self) {
                try ReportMerger.merge(parts, labels: parts.indices.map { "s\($0 + 1)/report.json" })
            }
            return error?.message ?? ""
        }
        var impossible = Self.shard(1, of: 3)
        impossible.shard?.index = 7
        #expect(refusal([impossible]).contains("s1/report.json: shard 7/3 is impossible: the index must be 1 to 3"))
        impossible.shard = Shard(index: 1, count: 0)
        #expect(refusal([impossible]).contains("the count must be at least 1"))
        impossible.shard = Shard(index: 0, count: 3)
        #expect(refusal([impossible]).contains("shard 0/3 is impossible"))
        #expect(
            refusal([Self.shard(1, of: 2), Self.shard(2, of: 3)]).contains(
                "shards of different splits: s1/report.json is shard 1/2, s2/report.json is shard 2/3"))
        #expect(
            refusal([Self.shard(1, of: 2), Self.shard(1, of: 2)]).contains(
                "shard 1/2 is given twice: s1/report.json and s2/report.json"))
        var whole = F.run([F.scenario("z.zero", .pass, requirements: ["CALLX-ARB-1"])])
        #expect(refusal([Self.shard(1, of: 2), whole]).contains("s2/report.json is not a shard"))
        #expect(
            refusal([Self.shard(1, of: 2), Self.shard(2, of: 2, selection: ["b.two", "x.other"])]).contains(
                "split different selections"))
        var stray = Self.shard(1, of: 2)
        stray.scenarios.append(F.scenario("b.two", .pass, requirements: ["CALLX-ARB-1"]))
        #expect(refusal([stray]).contains("holds b.two, which is not dealt to that shard"))
        whole.merge = MergeFacts(reports: 2, shardCount: 2, shards: [1], missingShards: [2])
        #expect(refusal([Self.shard(2, of: 2), whole]).contains("s2/report.json is already a merged report"))
    }

    @Test func aMergedReportAloneIsRenderedAgainWithItsGaps() throws {
        let merged = try ReportMerger.merge([Self.shard(1, of: 2)])
        #expect(try ReportMerger.merge([merged]) == merged)
    }
}
