import Foundation
import JSON
import Reports
import TestSupport
import Testing

/// A gate that never goes green by mistake: `report merge` of a partial shard set, a run that stops
/// before any scenario, the merge's exit code and options, as a user runs them.
@Suite struct ShardGateTests {
    static func json(_ path: String) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func ids(_ report: JSONValue, _ key: String) -> [String] {
        (report[key]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    @Test func aMergeWithAShardMissingIsInconclusiveNamingItsScenarios() async throws {
        let dir = TemporaryDirectory()
        for k in 1...2 {
            let r = try await RingcheckBinary.runSuite(
                [
                    "run", "--tag", "smoke", "--shard", "\(k)/3", "--format", "json", "--report-dir",
                    dir.file("s\(k)"),
                ], timeout: 90)
            #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        }
        // Each shard records the split and the whole selection it was taken from.
        let one = try Self.json(dir.file("s1/report.json"))
        #expect(one["shard"]?["index"]?.intValue == 1 && one["shard"]?["count"]?.intValue == 3)
        let selection = (one["shard"]?["selection"]?.arrayValue ?? []).compactMap(\.stringValue)
        let ran = Self.ids(one, "scenarios") + Self.ids(try Self.json(dir.file("s2/report.json")), "scenarios")
        #expect(selection.count >= 3 && Set(ran).isSubset(of: selection))
        let missing = selection.filter { !ran.contains($0) }
        #expect(!missing.isEmpty)

        // Shard 3 of 3 never reported (its CI job died): not green.
        let merged = try await RingcheckBinary.run([
            "report", "merge", dir.file("s1/report.json"), dir.file("s2/report.json"), "--report-dir", dir.file("m"),
        ])
        #expect(merged.status == 3, "\(merged.stdout)\n\(merged.stderr)")
        #expect(merged.stdout.contains("missing: shard 3/3"))
        #expect(merged.stdout.contains("Not run: \(missing.count) scenario"))
        #expect(merged.stdout.contains("Verdict: inconclusive (exit 3)"))
        let report = try Self.json(dir.file("m/report.json"))
        #expect(report["exitCode"]?.intValue == 3)
        #expect(report["merged"]?["missingShards"]?.arrayValue?.compactMap(\.intValue) == [3])
        #expect(report["merged"]?["shards"]?.arrayValue?.compactMap(\.intValue) == [1, 2])
        #expect(Self.ids(report, "notRun") == missing.sorted())
        let junit = try String(contentsOfFile: dir.file("m/junit.xml"), encoding: .utf8)
        #expect(junit.contains("no report.json of shard 3/3 was merged"))
        #expect(!junit.contains("errors=\"0\""))

        // One shard alone is no whole run either.
        let alone = try await RingcheckBinary.run([
            "report", "merge", dir.file("s2/report.json"), "--report-dir", dir.file("m2"),
        ])
        #expect(alone.status == 3)
        #expect(alone.stdout.contains("missing: shards 1/3, 3/3"))

        // Shards of two splits, or an index the split cannot have, are refused naming the file.
        let text = try String(contentsOfFile: dir.file("s2/report.json"), encoding: .utf8)
        let otherSplit = try dir.write(
            "four.json", text.replacingOccurrences(of: "\"count\" : 3", with: "\"count\" : 4"))
        let mixed = try await RingcheckBinary.run([
            "report", "merge", dir.file("s1/report.json"), otherSplit, "--report-dir", dir.file("x"),
        ])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("shards of different splits"), "\(mixed.stderr)")
        let seven = try dir.write(
            "seven.json", text.replacingOccurrences(of: "\"index\" : 2", with: "\"index\" : 7"))
        let impossible = try await RingcheckBinary.run(["report", "merge", seven, "--report-dir", dir.file("y")])
        #expect(impossible.status == 2)
        #expect(impossible.stderr.contains("\(seven): shard 7/3 is impossible"), "\(impossible.stderr)")
    }

    @Test func anImpossibleShardIsRefusedNamingTheOption() async throws {
        for bad in ["0/3", "7/3", "1/0", "-1/2", "x/2", "1/y", "2", "1/2/3", "", "99999999999999999999/3"] {
            let r = try await RingcheckBinary.run(["run", "--shard", bad, "--report-dir", "/nonexistent/never"])
            #expect(r.status == 2, "--shard \(bad): \(r.stderr)")
            #expect(r.stderr.contains("--shard"), "--shard \(bad): \(r.stderr)")
        }
        let r = try await RingcheckBinary.run(["run", "--shard", "7/3"])
        #expect(r.stderr.contains("the index I must be 1 to 3"), "\(r.stderr)")
    }

    @Test func aRunThatStopsBeforeAnyScenarioWritesEveryReport() async throws {
        let dir = TemporaryDirectory()
        let path = try await TargetCommandTests.unreachableTarget(in: dir)
        let r = try await RingcheckBinary.run([
            "run", "basic.*", "--target", path, "--shard", "1/2", "--report-dir", dir.file("r"),
        ])
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("does not answer"))
        for name in ["report.json", "junit.xml", "report.html", "summary.md"] {
            #expect(FileManager.default.fileExists(atPath: dir.file("r/" + name)), "\(name) missing")
        }
        let report = try Self.json(dir.file("r/report.json"))
        #expect(report["verdict"]?.stringValue == "inconclusive")
        #expect(report["exitCode"]?.intValue == 3)
        #expect(report["aborted"]?.stringValue?.contains("does not answer") == true)
        #expect(report["shard"]?["index"]?.intValue == 1)
        let notRun = report["notRun"]?.arrayValue ?? []
        #expect(!notRun.isEmpty)
        #expect(notRun.allSatisfy { $0["reason"]?.stringValue == "the run stopped before any scenario" })
        let junit = try String(contentsOfFile: dir.file("r/junit.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<error ").count - 1 == 1)
        #expect(junit.contains("name=\"stopped before any scenario\""))
        #expect(junit.contains("does not answer"))
        let summary = try String(contentsOfFile: dir.file("r/summary.md"), encoding: .utf8)
        #expect(summary.contains("inconclusive") && summary.contains("does not answer"))
        let html = try String(contentsOfFile: dir.file("r/report.html"), encoding: .utf8)
        #expect(html.contains("does not answer"))
        // --format still chooses the files.
        let only = try await RingcheckBinary.run([
            "run", "basic.*", "--target", path, "--format", "junit", "--report-dir", dir.file("j"),
        ])
        #expect(only.status == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("j")) == ["junit.xml"])
    }

    @Test func theMergesExitCodeIsTheOneItsReportSays() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "tokens.delete", "--format", "json", "--report-dir", dir.file("s")], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        // The run as Ctrl-C would have left it.
        let text = try String(contentsOfFile: dir.file("s/report.json"), encoding: .utf8)
            .replacingOccurrences(
                of: "\"exitCode\" : 0,",
                with: "\"exitCode\" : 130,\n  \"interrupted\" : {\"signal\" : \"SIGINT\", \"exitCode\" : 130},")
        let interrupted = try dir.write("interrupted.json", text)
        let merged = try await RingcheckBinary.run(["report", "merge", interrupted, "--report-dir", dir.file("m")])
        let report = try Self.json(dir.file("m/report.json"))
        #expect(merged.status == 3, "\(merged.stdout)\n\(merged.stderr)")
        #expect(report["exitCode"]?.intValue == Int(merged.status))
        #expect(report["merged"]?["interrupted"]?.arrayValue?.first?.stringValue == "\(interrupted): SIGINT")
    }

    @Test func mergeRefusesAnEmptyReportDirAndFormat() async throws {
        let dir = TemporaryDirectory()
        // A report that merges (exit 0): only the options are wrong.
        let passed = ScenarioResult(
            id: "a.b", title: "A", requirements: [], tags: [], status: .pass, durationMs: 1, failures: [],
            timeline: [], rerunCommand: "ringcheck run a.b")
        let report = try dir.write(
            "r.json",
            JSONReport.render(
                RunResult(
                    ringcheckVersion: "0.1.0", suite: SuiteDescription(id: "callx", version: "1", title: "Callx"),
                    target: "t", startedAt: Date(), finishedAt: Date(), requirements: [], scenarios: [passed])))
        let fine = try await RingcheckBinary.run(["report", "merge", report, "--report-dir", dir.file("ok")])
        #expect(fine.status == 0, "\(fine.stderr)")
        let emptyDir = try await RingcheckBinary.run(["report", "merge", report, "--report-dir", ""])
        #expect(emptyDir.status == 2)
        #expect(emptyDir.stderr.contains("--report-dir is empty"), "\(emptyDir.stderr)")
        #expect(!emptyDir.stderr.contains("Error Domain"))
        for format in ["", ",", "pdf"] {
            let merge = try await RingcheckBinary.run([
                "report", "merge", report, "--format", format, "--report-dir", dir.file("m"),
            ])
            #expect(merge.status == 2, "--format '\(format)': \(merge.stderr)")
            #expect(merge.stderr.contains("format"))
            let run = try await RingcheckBinary.run(["run", "--format", format, "--report-dir", dir.file("r")])
            #expect(run.status == 2, "run --format '\(format)': \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("m")))
    }

    @Test func aHundredThousandCharacterIDIsRefusedWithAShortMessage() async throws {
        let long = String(repeating: "arbitration.", count: 100_000 / 12) + "xxxx"
        #expect(long.count == 100_000)
        for arguments in [["run", long], ["explain", long], ["run", "--" + long], [long]] {
            let r = try await RingcheckBinary.run(arguments, timeout: 120)
            #expect(r.status == 2, "\(arguments.first ?? ""): \(r.stderr.prefix(300))")
            #expect(r.stderr.utf8.count < 1_000, "\(arguments.first ?? ""): \(r.stderr.utf8.count) bytes")
            #expect(r.stderr.contains("bytes)"), "\(r.stderr.prefix(300))")
        }
    }
}
