import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck load` end to end through the built binary against the embedded reference backend: a short,
/// slow load has a clean history, and each defect the history check exists for is found and named.
/// Low rates and generous time limits; the assertions are on verdicts, never on speed.
@Suite(.serialized) struct LoadCommandTests {
    static let plain = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }

    /// Runs `ringcheck load` with `arguments` into a fresh report folder; the result and load-report.json,
    /// which must match docs/load-report.schema.json.
    static func load(_ arguments: [String]) async throws -> (ProcessResult, JSONValue?) {
        let dir = TemporaryDirectory(prefix: "ringcheck-load")
        let r = try await RingcheckBinary.run(
            ["load", "--report-dir", dir.path] + arguments, timeout: 300, environment: plain)
        let data = FileManager.default.contents(atPath: dir.file("load-report.json"))
        let report = data.flatMap { try? JSONValue.parse(Array($0)) }
        if let report {
            #expect(try LoadReportSchema.violations(of: report) == [])
            #expect(report["exitCode"]?.int64Value == Int64(r.status))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("report.json")), "run's report name")
        return (r, report)
    }

    static func violations(_ report: JSONValue?, rule: String) -> [JSONValue] {
        (report?["historyViolations"]?.arrayValue ?? []).filter { $0["rule"]?.stringValue == rule }
    }

    /// The callIds of the calls the driver placed, from the report's violations' own field.
    static func calls(_ vs: [JSONValue]) -> Set<String> { Set(vs.compactMap { $0["callId"]?.stringValue }) }

    @Test func aShortLoadOnTheReferenceHasACleanHistory() async throws {
        let (r, report) = try await Self.load(["--calls", "20", "--rate", "4", "--reference-in-process"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["verdict"]?.stringValue == "conformant")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true)
        #expect(report?["invariantViolations"]?.arrayValue?.isEmpty == true)
        #expect(report?["callsFinished"]?.int64Value == 20)
        #expect((report?["invitations"]?.int64Value ?? 0) >= 40, "each call invites 2 or 3 devices")
        // Every script of the mix ran.
        for script in ["race", "cancel", "decline", "answer-retry", "expire", "callee-hangup"] {
            #expect((report?["scripts"]?[script]?.int64Value ?? 0) > 0, "no \(script) call")
        }
        let endpoints = Set((report?["endpoints"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        #expect(endpoints.isSuperset(of: ["create", "answer", "end", "get", "events"]))
        // Each caller's feed is read through an installation registered first, as a real app's is: two
        // callers, and three callees with eight devices between them.
        let register = report?["endpoints"]?.arrayValue?.first { $0["name"]?.stringValue == "register" }
        #expect(register?["count"]?.int64Value == 10, "\(String(describing: register))")
        #expect(report?["pushLatency"]?.arrayValue?.isEmpty == false)
        #expect(report?["resources"]?["label"]?.stringValue?.contains("ringcheck itself") == true)
        #expect(r.stdout.contains("calls/s sustained"))
        #expect(r.stdout.contains("history check: clean"))
        #expect(r.stdout.contains("verdict: conformant (exit 0)"))
    }

    @Test func aClosedLoopOnTheReferenceAsAChildProcessIsCleanAndMeasuresTheChild() async throws {
        let (r, report) = try await Self.load(["--concurrency", "4", "--calls", "10", "--reference-process"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["callsFinished"]?.int64Value == 10)
        #expect(report?["concurrency"]?.int64Value == 4)
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true)
        let resources = report?["resources"]
        #expect(resources?["label"]?.stringValue?.contains("reference backend (child process") == true)
        #expect((resources?["samples"]?.arrayValue?.count ?? 0) >= 2)
        #expect((resources?["rssPeakKiB"]?.int64Value ?? 0) > 0)
    }

    @Test func racyAnswersAreFoundAsTwoWinnersNamingTheCalls() async throws {
        let (r, report) = try await Self.load(["--calls", "30", "--rate", "4", "--reference-defect", "racy-answer"])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = Self.violations(report, rule: "one-winner")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.allSatisfy { $0["requirementID"]?.stringValue == "CALLX-ARB-1" })
        for callId in Self.calls(found) { #expect(r.stdout.contains("call \(callId)")) }
    }

    @Test func ignoredOperationIdsAreFoundAsRetriesWithAnotherOutcome() async throws {
        let (r, report) = try await Self.load(["--calls", "12", "--rate", "4", "--reference-defect", "no-idempotency"])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = Self.violations(report, rule: "retry-outcome")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.contains { $0["requirementID"]?.stringValue == "CALLX-IDEM-1" })
        #expect(!Self.calls(found).isEmpty)
    }

    @Test func invitationsSentAgainOnARetriedCreateAreFoundPerDevice() async throws {
        let (r, report) = try await Self.load([
            "--calls", "24", "--rate", "4", "--reference-defect", "duplicate-invite-on-retry",
        ])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = Self.violations(report, rule: "one-invitation")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.allSatisfy { $0["requirementID"]?.stringValue == "CALLX-OUTBOX-4" })
        // The profile's own invariant (as the suite applies it) finds the same pushes.
        let invariants = report?["invariantViolations"]?.arrayValue ?? []
        #expect(invariants.contains { $0["requirementID"]?.stringValue == "CALLX-OUTBOX-4" })
    }

    @Test(arguments: ["reference-alternate.yaml", "reference-node.yaml"])
    func aTargetFileDrivesItsBackendThroughItsMappingAndWatchesTheChild(_ example: String) async throws {
        let (r, report) = try await Self.load([
            "--target", TargetExampleRunTests.examples + "/" + example, "--calls", "10", "--rate", "3",
        ])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["callsFinished"]?.int64Value == 10)
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true)
        #expect((report?["invitations"]?.int64Value ?? 0) >= 20)
        #expect(report?["resources"]?["label"]?.stringValue?.contains("child process") == true)
    }

    @Test func unknownProfilesAndConflictingOptionsAreUsageErrors() async throws {
        let (profile, _) = try await Self.load(["--profile", "nosuch"])
        #expect(profile.status == 2)
        #expect(profile.stderr.contains("--profile"), "\(profile.stderr)")
        let (ring, _) = try await Self.load(["--profile", "onesignal", "--short-ring", "5"])
        #expect(ring.status == 2)
        #expect(ring.stderr.contains("--short-ring applies to --profile callx only"), "\(ring.stderr)")
        let (both, _) = try await Self.load(["--rate", "2", "--concurrency", "3"])
        #expect(both.status == 2)
        // A callx target without the caller a and callee b: refused before anything starts, naming the file's line.
        let dir = TemporaryDirectory(prefix: "ringcheck-load-target")
        let file = try dir.write(
            "x.yaml", "baseURL: http://127.0.0.1:9\nusers:\n  x: {userId: ux, auth: {bearer: t}}\n")
        let (users, _) = try await Self.load(["--target", file])
        #expect(users.status == 2)
        #expect(
            users.stderr.contains("x.yaml:3:3: users: missing user 'a' (load --profile callx: user a calls user b"),
            "\(users.stderr)")
        let (inProcess, _) = try await Self.load(["--target", file, "--reference-in-process"])
        #expect(inProcess.status == 2)
        #expect(inProcess.stderr.contains("not to --target"), "\(inProcess.stderr)")
        let help = try await RingcheckBinary.run(["--help"], environment: Self.plain)
        #expect(help.stdout.contains("load"))
    }
}
