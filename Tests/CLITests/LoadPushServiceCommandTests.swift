import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck load --profile push-service` end to end through the built binary: notifications and call pairs at a
/// low rate against the embedded reference push service (and a target file's), clean on the conforming
/// reference, and each defect the history check exists for found and named by its request. Small counts; the
/// assertions are on verdicts and findings, never on speed.
@Suite(.serialized) struct LoadPushServiceCommandTests {
    static func load(_ arguments: [String]) async throws -> (ProcessResult, JSONValue?) {
        try await LoadCommandTests.load(["--profile", "push-service"] + arguments)
    }

    @Test func notificationsAndCallsOnTheConformingReferenceHaveACleanHistory() async throws {
        let (r, report) = try await Self.load(["--calls", "12", "--rate", "4"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["profile"]?.stringValue == "push-service")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["invariantViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["scripts"]?["call"]?.int64Value == 6)
        #expect(report?["scripts"]?["notification"]?.int64Value == 6)
        let register = report?["endpoints"]?.arrayValue?.first { $0["name"]?.stringValue == "register" }
        #expect(register?["count"]?.int64Value == 16, "six users with 1 to 5 devices")
        let figures = Set((report?["pushLatency"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        #expect(figures.isSuperset(of: ["queue lag: notification", "queue lag: call incoming", "time to settle"]))
        // The reference runs as a child process (the default), measured on its own.
        #expect(report?["resources"]?["label"]?.stringValue?.contains("serve-reference --profile push-service") == true)
        #expect(r.stdout.contains("notifications/s sustained"), "\(r.stdout)")
    }

    /// User 2's Android token is always refused with 503: a service that counts it successful is found.
    @Test func countsThatIgnoreFailuresAreFoundNamingTheNotification() async throws {
        let (r, report) = try await Self.load([
            "--calls", "12", "--rate", "4", "--reference-defect", "counts-ignore-failures",
        ])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = LoadCommandTests.violations(report, rule: "counts-agree")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.allSatisfy { $0["requirementID"]?.stringValue == "PUSHSVC-COUNT-2" })
        #expect(found.contains { $0["message"]?.stringValue?.hasPrefix("notification load-") == true }, "\(r.stdout)")
    }

    /// User 3's VoIP token refuses each call's first push with a retry in 20 s, long after the 3 s ring: a service
    /// that retries past the ring is found.
    @Test func anIncomingCallPushAfterTheRingIsFoundNamingTheCall() async throws {
        let (r, report) = try await Self.load([
            "--calls", "12", "--rate", "4", "--reference-defect", "ignore-call-timeout", "--reference-in-process",
        ])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        let found = LoadCommandTests.violations(report, rule: "no-late-call")
        #expect(!found.isEmpty, "\(r.stdout)")
        #expect(found.allSatisfy { $0["requirementID"]?.stringValue == "PUSHSVC-CALL-8" })
        #expect(found.allSatisfy { $0["message"]?.stringValue?.hasPrefix("call incoming ") == true })
    }

    /// The example push-service file with one user of another name: load makes fresh users of its own, so it
    /// needs none of the file's by name.
    @Test func aTargetFileForAPushServiceIsLoadedThroughItsLifecycleWhateverItsUsers() async throws {
        let example = try String(
            contentsOfFile: TargetExampleRunTests.examples + "/push-service-reference.yaml", encoding: .utf8)
        let users = (["a", "b", "c"].map { "  \($0): {userId: \($0), auth: {bearer: unused}}\n" }).joined()
        #expect(example.contains(users), "the example's users changed: update this test")
        let dir = TemporaryDirectory(prefix: "ringcheck-load-target")
        let file = try dir.write(
            "one-user.yaml", example.replacingOccurrences(of: users, with: "  x: {userId: x, auth: {bearer: unused}}\n")
        )
        let (r, report) = try await LoadCommandTests.load(["--target", file, "--calls", "6", "--rate", "4"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["profile"]?.stringValue == "push-service")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["resources"]?["label"]?.stringValue?.contains("child process") == true)
    }
}
