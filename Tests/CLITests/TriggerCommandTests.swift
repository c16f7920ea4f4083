import Foundation
import JSON
import Processes
import PushMocks
import TestSupport
import Testing

/// `ringcheck trigger dialstack` against `serve-reference --profile dialstack` as a user runs it: the mocks' keys
/// and ports are fixed (`--mocks-dir`, `--apns-port`, …), the reference was started with their settings, and each
/// trigger brings the mocks up where the reference expects them.
@Suite struct TriggerCommandTests {
    /// The dialstack reference with a fresh secret, wired to the fixture's mocks.
    struct Fixture {
        let base: TriggerFixture
        let secret = "whsec_" + UUID().uuidString.lowercased()

        init(defects: [String] = []) async throws {
            base = try await TriggerFixture(
                profile: "dialstack", defects: defects, environment: ["DIALSTACK_WEBHOOK_SECRET": secret])
        }

        var webhookURL: String { base.reference.baseURL + "/webhooks/dialstack" }

        /// Runs the trigger with the fixture's URL, secret and mocks, and `arguments`.
        func trigger(_ arguments: [String]) async throws -> ProcessResult {
            try await base.trigger(url: webhookURL, ["--secret", secret] + arguments)
        }
    }

    static func lines(_ r: ProcessResult) throws -> [JSONValue] { try TriggerFixture.lines(r) }

    static func violated(_ summary: JSONValue?) -> Set<String> { TriggerFixture.violated(summary) }

    @Test func aCleanWakeUpShowsTheAnswerAndAPushToEachDeviceAndExitsZero() async throws {
        let f = try await Fixture()
        let r = try await f.trigger(["--user", "user-b", "--redeliver", "1", "--json"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = try Self.lines(r)
        let pushes = lines.filter { $0["kind"]?.stringValue == "push" }
        #expect(Set(pushes.compactMap { $0["device"]?.stringValue }) == ["phone", "tablet"], "\(r.stdout)")
        #expect(pushes.allSatisfy { $0["accepted"] == .bool(true) }, "\(r.stdout)")
        let posts = lines.filter { $0["kind"]?.stringValue == "action" }
        #expect(posts.map { $0["status"] } == [.int(200), .int(200)], "the event and its redelivery: \(r.stdout)")
        let summary = lines.last
        #expect(summary?["outcome"]?.stringValue == "clean")
        #expect(summary?["exitStatus"] == .int(0))
        #expect(!r.stdout.contains(f.secret) && !r.stderr.contains(f.secret), "the secret is never printed")
    }

    /// DIALSTACK-DEDUP-1 is a SHOULD: a redelivery that rings again is a warning, as `call` shows a push's SHOULD
    /// violation and `run` exits without `--strict`: a `note` line, the summary's `warnings`, exit 0.
    @Test func aRedeliveryThatRingsAgainIsAWarningOfDedupAndExitsZero() async throws {
        let f = try await Fixture(defects: ["ring-twice-on-redelivery"])
        let r = try await f.trigger(["--user", "user-b", "--redeliver", "1", "--json"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = try Self.lines(r)
        let summary = lines.last
        #expect(summary?["outcome"]?.stringValue == "clean", "\(r.stdout)")
        #expect(summary?["exitStatus"] == .int(0), "\(r.stdout)")
        #expect(Self.violated(summary).isEmpty, "\(r.stdout)")
        let warned = summary?["warnings"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue } ?? []
        #expect(Set(warned) == ["DIALSTACK-DEDUP-1"] && warned.count == 2, "phone and tablet rang twice: \(r.stdout)")
        #expect(summary?["detail"]?.stringValue?.contains("SHOULD not met: DIALSTACK-DEDUP-1") == true, "\(r.stdout)")
        let warnings = lines.filter { $0["kind"]?.stringValue == "note" && $0["level"]?.stringValue == "SHOULD" }
        #expect(warnings.count == 2, "\(r.stdout)")
        #expect(warnings.allSatisfy { $0["message"]?.stringValue?.hasPrefix("warning: DIALSTACK-DEDUP-1") == true })
        #expect(!lines.contains { $0["kind"]?.stringValue == "finding" }, "a SHOULD is no finding: \(r.stdout)")
    }

    /// Only the first device is woken: the tablet's missing push is charged once the seed's 30 s have passed.
    @Test func aDeviceLeftAsleepIsAViolationOfWake1() async throws {
        let f = try await Fixture(defects: ["first-device-only"])
        let r = try await f.trigger(["--user", "user-b", "--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(Self.violated(try Self.lines(r).last) == ["DIALSTACK-WAKE-1"], "\(r.stdout)")
    }

    @Test func aPushToAnotherUsersDeviceIsAViolationOfWake2() async throws {
        let f = try await Fixture(defects: ["wrong-user"])
        let r = try await f.trigger(["--user", "user-b", "--bystander", "user-c"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("DIALSTACK-WAKE-2: push #") && !r.stdout.contains("push #Optional"), "\(r.stdout)")
        #expect(r.stdout.contains("Outcome: violated — violates DIALSTACK-WAKE-2 (exit 1)"), "\(r.stdout)")
    }

    @Test func aBadSignatureMustBeRefusedAndPushNothing() async throws {
        let clean = try await Fixture()
        let refused = try await clean.trigger(["--user", "user-b", "--signature", "wrong-secret", "--json"])
        #expect(refused.status == 0, "\(refused.stdout)\(refused.stderr)")
        let lines = try Self.lines(refused)
        #expect(lines.first { $0["kind"]?.stringValue == "action" }?["status"] == .int(401))
        #expect(!lines.contains { $0["kind"]?.stringValue == "push" }, "\(refused.stdout)")

        let careless = try await Fixture(defects: ["no-signature-check"])
        let r = try await careless.trigger(["--user", "user-b", "--signature", "stale", "--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let lines2 = try Self.lines(r)
        #expect(Self.violated(lines2.last) == ["DIALSTACK-SIG-4"], "\(r.stdout)")
        // Both the 200 and the pushes it caused are findings: a 401 with a push would still fail.
        let findings = lines2.filter { $0["kind"]?.stringValue == "finding" }.compactMap { $0["message"]?.stringValue }
        #expect(findings.contains { $0.contains("answered 200, expected 401") }, "\(findings)")
        #expect(findings.contains { $0.contains("stale signature must be refused") }, "\(findings)")
    }

    /// The trigger's own fresh mocks, where the reference does not push (as a backend pushing to the real
    /// APNs/FCM): the answer alone is judged and the output says so; with virtual devices due a push, that
    /// cannot be judged (exit 3) — after the seed's 30 s budget.
    @Test func whenNoPushReachesTheMocksTheAnswerAloneIsJudgedAndSaidSo() async throws {
        let f = try await Fixture()
        let base = [
            "trigger", "dialstack", "--url", f.webhookURL, "--secret", f.secret, "--user", "user-b", "--settle", "1",
        ]
        let alone = try await RingcheckBinary.run(base + ["--no-devices"], timeout: 120)
        #expect(alone.status == 0, "\(alone.stdout)\(alone.stderr)")
        #expect(alone.stdout.contains("no push reached ringcheck's mocks"), "\(alone.stdout)")
        #expect(alone.stdout.contains("Answers: 200; pushes: 0"), "\(alone.stdout)")
        // DialStack's API (and the CA the reference trusts) where the reference enables Wake-Up Hold, so its
        // registrations succeed while APNs and FCM are on fresh ports it does not know.
        let due = try await RingcheckBinary.run(
            base + ["--mocks-dir", f.base.dir.file("mocks"), "--port", "dialstack=\(f.base.ports[4])"], timeout: 180)
        #expect(due.status == 3, "\(due.stdout)\(due.stderr)")
        #expect(due.stdout.contains("no push reached ringcheck's mocks"), "\(due.stdout)")
    }

    /// Without `--mocks-dir` the trigger's fresh mocks do not serve the DialStack API the reference calls when a
    /// device registers (Wake-Up Hold), so the registration is answered 502: the trigger is inconclusive and says
    /// what the backend answered and why that may be, not "check --bearer and --api".
    @Test func aRegistrationFailingBehindTheBackendSaysWhatItAnsweredAndPointsAtTheMocks() async throws {
        let f = try await Fixture()
        let r = try await RingcheckBinary.run(
            [
                "trigger", "dialstack", "--url", f.webhookURL, "--secret", f.secret, "--user", "user-b", "--settle",
                "1",
            ], timeout: 120)
        #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("→ 502 "), "the status: \(r.stdout)")
        #expect(r.stdout.contains("dialstack_unreachable"), "the backend's own answer: \(r.stdout)")
        #expect(r.stdout.contains("--mocks-dir") && r.stdout.contains("--port dialstack=PORT"), "\(r.stdout)")
        #expect(!r.stdout.contains("check --bearer"), "\(r.stdout)")
        // A refused bearer is still told to check it, with the backend's answer.
        let refused = try await f.trigger(["--user", "user-b", "--bearer", "token-nobody"])
        #expect(refused.status == 3, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("→ 401"), "\(refused.stdout)")
        #expect(refused.stdout.contains("check --bearer and --api"), "\(refused.stdout)")
    }

    @Test func anUnreachableBackendIsInconclusive() async throws {
        let port = ClientTestPeer.closedPort()
        let r = try await RingcheckBinary.run([
            "trigger", "dialstack", "--url", "http://127.0.0.1:\(port)/webhooks/dialstack", "--secret", "s", "--user",
            "user-b",
        ])
        #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("could not be reached"), "\(r.stdout)")
    }

    @Test(arguments: [
        (["dialstack", "--secret", "s", "--user", "u"], "--url URL is required"),
        (["dialstack", "--url", "http://127.0.0.1:1/w", "--user", "u"], "--secret SECRET"),
        (["dialstack", "--url", "http://127.0.0.1:1/w", "--secret", "s"], "--user USER is required"),
        (["callx", "--url", "http://127.0.0.1:1/w", "--secret", "s", "--user", "u"], "trigger knows the profiles"),
        (
            ["dialstack", "--url", "http://127.0.0.1:1/w", "--secret", "s", "--user", "u", "--ttl", "5"],
            "--ttl is a push-service option"
        ),
        (
            ["dialstack", "--url", "http://127.0.0.1:1/w", "--secret", "s", "--user", "u", "--signature", "stail"],
            "did you mean 'stale'"
        ),
        (
            ["dialstack", "--url", "http://127.0.0.1:1/w", "--secret", "s", "--user", "u", "--redeliver", "-1"],
            "--redeliver"
        ),
        (["dialstack", "--url", "ftp://x", "--secret", "s", "--user", "u"], "--url URL is required"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        var env = ProcessInfo.processInfo.environment
        env["DIALSTACK_WEBHOOK_SECRET"] = nil
        let r = try await RingcheckBinary.run(["trigger"] + arguments, environment: env)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
