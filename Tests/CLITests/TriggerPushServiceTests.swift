import Foundation
import JSON
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck trigger push-service` against `serve-reference --profile push-service` as a user runs it: one call or
/// notification through the running service, its pushes on the trigger's mocks and its counts, judged.
@Suite struct TriggerPushServiceTests {
    static let appId = "app-" + UUID().uuidString.lowercased()
    static let key = "psk_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    /// The App ID and key as the reference and the trigger read them (never on the command line).
    static let environment = ["RINGCHECK_PUSH_SERVICE_APP_ID": appId, "RINGCHECK_PUSH_SERVICE_API_KEY": key]

    static func fixture(_ defects: [String] = []) async throws -> TriggerFixture {
        try await TriggerFixture(profile: "push-service", defects: defects, environment: environment)
    }

    static func trigger(_ f: TriggerFixture, _ arguments: [String]) async throws -> ProcessResult {
        try await f.trigger(
            url: f.reference.baseURL, arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    @Test func aCleanCallShowsIncomingAndEndedOnEveryDeviceAndTheCounts() async throws {
        let f = try await Self.fixture()
        let r = try await Self.trigger(f, ["--end-after", "1", "--json"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = try TriggerFixture.lines(r)
        let pushes = lines.filter { $0["kind"] == "push" && $0["accepted"] == .bool(true) }
        for type in ["incoming_call", "call_ended"] {
            let devices = Set(
                pushes.filter { $0["type"]?.stringValue == type }.compactMap { $0["device"]?.stringValue })
            #expect(devices == ["phone", "tablet"], "\(type): \(r.stdout)")
        }
        let counts = lines.filter { $0["request"] == "counts" }
        #expect(counts.count == 2, "\(r.stdout)")
        #expect(counts.allSatisfy { $0.value(atPath: "counts.successful") == .int(2) }, "\(r.stdout)")
        let removed = lines.filter { $0["kind"] == "setup" && $0["message"]?.stringValue?.hasPrefix("removed") == true }
        #expect(removed.count == 2, "\(r.stdout)")
        #expect(lines.last?["outcome"] == "clean")
        #expect(!r.stdout.contains(Self.key) && !r.stderr.contains(Self.key), "the key is never printed")
    }

    @Test func aCallAsAnAlertIsAViolationOfCall1() async throws {
        let f = try await Self.fixture(["alert-for-calls"])
        let r = try await Self.trigger(f, ["--no-end", "--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(TriggerFixture.violated(try TriggerFixture.lines(r).last) == ["PUSHSVC-CALL-1"], "\(r.stdout)")
    }

    @Test func anEndedWithAnotherCallIdIsAViolationOfCall4() async throws {
        let f = try await Self.fixture(["ended-new-id"])
        let r = try await Self.trigger(f, ["--end-after", "0.5"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("Outcome: violated — violates PUSHSVC-CALL-4 (exit 1)"), "\(r.stdout)")
    }

    /// An iPhone without a VoIP token gets no call push and is one failure: counted as a success it breaks CALL-6.
    @Test func countsThatHideTheFailureOfAPhoneWithoutVoIPTokenViolateCall6() async throws {
        let clean = try await Self.fixture()
        let ok = try await Self.trigger(clean, ["--no-voip", "--no-end", "--json"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let f = try await Self.fixture(["counts-ignore-failures"])
        let r = try await Self.trigger(f, ["--no-voip", "--no-end", "--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(TriggerFixture.violated(try TriggerFixture.lines(r).last) == ["PUSHSVC-CALL-6"], "\(r.stdout)")
    }

    @Test func aNotificationWhoseTtlIsDroppedIsAViolationOfNotif2() async throws {
        let clean = try await Self.fixture()
        let ok = try await Self.trigger(clean, ["--send", "notification", "--ttl", "600", "--json"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let shown = try TriggerFixture.lines(ok).filter { $0["kind"] == "push" && $0["accepted"] == .bool(true) }
        #expect(Set(shown.compactMap { $0["device"]?.stringValue }) == ["phone", "tablet"], "\(ok.stdout)")
        let f = try await Self.fixture(["ignore-ttl"])
        let r = try await Self.trigger(f, ["--send", "notification", "--ttl", "600", "--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(TriggerFixture.violated(try TriggerFixture.lines(r).last) == ["PUSHSVC-NOTIF-2"], "\(r.stdout)")
    }

    /// Ctrl-C while the call rings removes the virtual devices before exiting 130: afterwards nobody of the
    /// external ID can receive (the service answers `id: ""`).
    @Test func ctrlCRemovesTheVirtualDevicesAndExits130() async throws {
        let f = try await Self.fixture()
        let dir = TemporaryDirectory()
        let out = dir.file("stdout")
        let externalId = "ringcheck-interrupted-" + UUID().uuidString.lowercased()
        let env = ProcessInfo.processInfo.environment.merging(Self.environment) { $1 }
        let pid = try MockStackProcess.spawn(
            [RingcheckBinary.path]
                + f.arguments(url: f.reference.baseURL, ["--user", externalId, "--end-after", "600", "--json"]),
            stdout: out, stderr: dir.file("stderr"), environment: env)
        var reaped = false
        defer { if !reaped { MockStackProcess.kill(pid) } }
        // Interrupt once the call's pushes are out.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            if text.components(separatedBy: "\"type\":\"incoming_call\"").count > 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, SIGINT)
        let status = await offPool { MockStackProcess.wait(pid, timeout: 60) }
        reaped = status != nil
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        #expect(status == 130, "\(text)")
        #expect(text.contains("interrupted (signal 2): removing the virtual devices"), "\(text)")
        #expect(text.components(separatedBy: "removed virtual").count == 3, "\(text)")
        let answer = try await Self.notifyNobody(f, externalId)
        #expect(answer["id"] == "", "the devices are gone: \(answer.serialized())")
    }

    /// `POST /notifications` to `externalId` as the app server; the answer.
    static func notifyNobody(_ f: TriggerFixture, _ externalId: String) async throws -> JSONValue {
        let body =
            #"{"app_id":"\#(appId)","include_aliases":{"external_id":["\#(externalId)"]},"contents":{"en":"x"}}"#
        let r = try await runProcess(
            "curl",
            [
                "-s", "-X", "POST", f.reference.baseURL + "/notifications", "-H", "authorization: Key \(key)", "-H",
                "content-type: application/json", "-d", body,
            ], timeout: 30)
        return try JSONValue.parse(r.stdout)
    }

    @Test(
        arguments: [
            (["--url", "http://127.0.0.1:1"], [:], "--app-id ID (or RINGCHECK_PUSH_SERVICE_APP_ID) is required"),
            (["--url", "http://127.0.0.1:1", "--app-id", "a"], [:], "--api-key KEY"),
            (
                ["--app-id", "a"], ["RINGCHECK_PUSH_SERVICE_API_KEY": "k"],
                "--url URL is required: the service's base URL"
            ),
            (["--url", "http://127.0.0.1:1", "--send", "cal"], environment, "did you mean 'call'"),
            (["--url", "http://127.0.0.1:1", "--ttl", "5"], environment, "--ttl applies to --send notification only"),
            (
                ["--url", "http://127.0.0.1:1", "--send", "notification", "--no-end"], environment,
                "--no-end applies to --send call"
            ),
            (["--url", "http://127.0.0.1:1", "--no-devices"], environment, "--no-devices needs --user"),
            (["--url", "http://127.0.0.1:1", "--no-end", "--end-after", "2"], environment, "exclude each other"),
            (["--url", "http://127.0.0.1:1", "--ring", "0"], environment, "--ring"),
            (["--url", "http://127.0.0.1:1", "--redeliver", "1"], environment, "--redeliver is a dialstack option"),
        ] as [([String], [String: String], String)])
    func badOptionsAreUsageErrors(arguments: [String], variables: [String: String], message: String) async throws {
        var env = ProcessInfo.processInfo.environment
        env["RINGCHECK_PUSH_SERVICE_APP_ID"] = nil
        env["RINGCHECK_PUSH_SERVICE_API_KEY"] = nil
        env.merge(variables) { $1 }
        let r = try await RingcheckBinary.run(["trigger", "push-service"] + arguments, environment: env)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test func helpNamesThePushServiceOptions() async throws {
        let r = try await RingcheckBinary.run(["trigger", "--help"])
        #expect(r.status == 0)
        for text in ["--app-id <ID>", "--send <WHAT>", "--end-after <S>", "--no-voip", "push-service:", "130"] {
            #expect(r.stdout.contains(text), "help lacks '\(text)'")
        }
    }
}
