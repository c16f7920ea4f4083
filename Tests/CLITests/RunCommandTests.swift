import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck run`, `list`, `explain` and `report merge` as a user runs them.
@Suite struct RunCommandTests {
    static func report(_ dir: TemporaryDirectory, _ sub: String = "") throws -> JSONValue {
        let path = dir.file(sub.isEmpty ? "report.json" : sub + "/report.json")
        return try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func wholeSuitePassesAgainstTheEmbeddedReferenceBackend() async throws {
        let dir = TemporaryDirectory()
        // How fast the suite runs is measured by benchmarks/suite-wall-time.sh, not here: this wall time
        // would include waiting for other whole-suite runs of the test run.
        let r = try await RingcheckBinary.runSuite(["run", "--report-dir", dir.path], timeout: 120)
        #expect(r.status == 0, "\(r.stdout.suffix(3000))\n\(r.stderr)")
        #expect(r.stdout.contains("Verdict: conformant (exit 0)"))
        #expect(r.stdout.contains("ringcheck 0.1.0"))
        for name in ["report.json", "junit.xml", "report.html", "summary.md"] {
            #expect(FileManager.default.fileExists(atPath: dir.file(name)), "\(name) missing")
        }
        let json = try Self.report(dir)
        let scenarios = json["scenarios"]?.arrayValue ?? []
        #expect(scenarios.count >= 38)
        #expect(scenarios.allSatisfy { $0["status"]?.stringValue == "pass" })
        // docs/getting-started.md shows this run's output: every line of its sample reads as one of these.
        let sample = try DocSamplesTests.sample("first-run", in: "docs/getting-started.md")
        DocSamplesTests.expectSample(sample, readsAs: r.stdout, total: scenarios.count, "docs/getting-started.md")
        #expect(json.serialized().contains("embedded reference backend"))
        let junit = try String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)
        #expect(junit.contains("CALLX-"))
        // No bearer token of a test account leaks into any report.
        for name in ["report.json", "junit.xml", "report.html", "summary.md"] {
            let text = try String(contentsOfFile: dir.file(name), encoding: .utf8)
            #expect(!text.contains("token-u"), "\(name) shows an account token")
        }
    }

    @Test func aFailureShowsRequirementEvidenceAndTheRerunCommand() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "payload.apns-invitation", "--reference-defect", "apns-expiration-30", "--report-dir", dir.path],
            timeout: 60, environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(r.status == 1)
        #expect(r.stdout.contains("MUST CALLX-APNS-5"))
        #expect(
            r.stdout.contains("re-run: ringcheck run payload.apns-invitation --reference-defect apns-expiration-30"))
        #expect(r.stdout.contains("apns-expiration"))
        #expect(!r.stdout.contains("\u{1B}["))
    }

    @Test func usageErrorsExitTwo() async throws {
        let target = try await RingcheckBinary.run(["run", "--target", "no-such-target.yaml"])
        #expect(target.status == 2)
        #expect(target.stderr.contains("no-such-target.yaml:1:1: cannot read the file"))
        let unknown = try await RingcheckBinary.run(["run", "no.such-scenario"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no scenario matches"))
        let defect = try await RingcheckBinary.run(["run", "--reference-defect", "nope"])
        #expect(defect.status == 2)
        let shard = try await RingcheckBinary.run(["run", "--shard", "3/2"])
        #expect(shard.status == 2)
        let format = try await RingcheckBinary.run(["run", "--format", "pdf"])
        #expect(format.status == 2)
    }

    @Test func failFastStartsNoScenarioAfterAFailure() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "payload.*", "signals.*", "basic.*", "--reference-defect", "apns-expiration-30", "--fail-fast",
                "--concurrency", "1", "--format", "console,json,junit", "--report-dir", dir.path,
            ], timeout: 60)
        #expect(r.status == 1)
        let scenarios = try Self.report(dir)["scenarios"]?.arrayValue ?? []
        // One at a time in ID order: the first scenario with a VoIP push fails and nothing starts after it.
        #expect(scenarios.last?["status"]?.stringValue == "fail")
        #expect(scenarios.count < 7)
        // The rest are in the report as not run, and skipped with the reason in JUnit.
        let notRun = try Self.report(dir)["notRun"]?.arrayValue ?? []
        #expect(!notRun.isEmpty)
        #expect(notRun.allSatisfy { $0["reason"]?.stringValue == "--fail-fast: a scenario failed first" })
        #expect(r.stdout.contains("Not run: \(notRun.count) scenario"))
        let junit = try String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)
        #expect(
            junit.components(separatedBy: "<skipped message=\"not run: --fail-fast: a scenario failed first\"/>")
                .count - 1 == notRun.count)
    }

    @Test func repeatReportsEveryAttempt() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "tokens.delete", "--repeat", "3", "--format", "json", "--report-dir", dir.path], timeout: 60)
        #expect(r.status == 0)
        let s = try #require(try Self.report(dir)["scenarios"]?[0])
        #expect(s["attempts"]?.intValue == 3)
        #expect(s["passedAttempts"]?.intValue == 3)
    }

    @Test func shardsSplitTheSuiteAndMergeBackIntoOneVerdict() async throws {
        let dir = TemporaryDirectory()
        let one = try await RingcheckBinary.runSuite(
            ["run", "--tag", "smoke", "--shard", "1/2", "--format", "json", "--report-dir", dir.file("s1")], timeout: 60
        )
        let two = try await RingcheckBinary.runSuite(
            ["run", "--tag", "smoke", "--shard", "2/2", "--format", "json", "--report-dir", dir.file("s2")], timeout: 60
        )
        #expect(one.status == 0 && two.status == 0)
        let ids1 = Set((try Self.report(dir, "s1")["scenarios"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let ids2 = Set((try Self.report(dir, "s2")["scenarios"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        #expect(!ids1.isEmpty && !ids2.isEmpty && ids1.isDisjoint(with: ids2))
        let merged = try await RingcheckBinary.run([
            "report", "merge", dir.file("s1/report.json"), dir.file("s2/report.json"), "--report-dir", dir.file("m"),
        ])
        #expect(merged.status == 0, "\(merged.stderr)")
        let all = Set((try Self.report(dir, "m")["scenarios"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        #expect(all == ids1.union(ids2))
        let twice = try await RingcheckBinary.run([
            "report", "merge", dir.file("s1/report.json"), dir.file("s1/report.json"), "--report-dir", dir.file("x"),
        ])
        #expect(twice.status == 2)
    }

    @Test func listAndExplainDescribeScenariosAndRequirements() async throws {
        let list = try await RingcheckBinary.run(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("arbitration.two-devices-race"))
        #expect(list.stdout.contains("CALLX-ARB-1 MUST"))
        #expect(list.stdout.contains("CALLX-TOK-7 SHOULD"))
        let explain = try await RingcheckBinary.run(["explain", "arbitration.two-devices-race"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("exactly one answer wins"))
        #expect(explain.stdout.contains("race"))
        let requirement = try await RingcheckBinary.run(["explain", "CALLX-APNS-5"])
        #expect(requirement.status == 0)
        #expect(requirement.stdout.contains("payload.apns-invitation"))
        let unknown = try await RingcheckBinary.run(["explain", "arbitration.two-device-race"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'arbitration.two-devices-race'"))
    }
}
