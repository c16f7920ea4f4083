import Foundation
import JSON
import Processes
import TestSupport
import Testing

/// `ringcheck trigger onesignal` against `serve-reference --profile onesignal --mock-settings` as a user runs it:
/// one kit operation, the OneSignal request it made on the trigger's mock OneSignal, judged.
@Suite struct TriggerOneSignalTests {
    static func fixture(_ defects: [String] = []) async throws -> TriggerFixture {
        try await TriggerFixture(profile: "onesignal", defects: defects, referenceArguments: ["--mock-settings"])
    }

    static func trigger(_ f: TriggerFixture, _ arguments: [String]) async throws -> ProcessResult {
        try await f.trigger(url: f.reference.baseURL, arguments)
    }

    @Test func aVoIPPushShowsItsRequestToTheVoIPAppAndExitsZero() async throws {
        let f = try await Self.fixture()
        let r = try await Self.trigger(f, ["--send", "voip", "--options", #"{"ttl":30}"#, "--json"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let lines = try TriggerFixture.lines(r)
        let requests = lines.filter { $0["kind"] == "push" && $0["provider"] == "onesignal" }
        #expect(requests.count == 1, "\(r.stdout)")
        #expect(requests.first?["message"]?.stringValue?.contains("the voip app") == true, "\(r.stdout)")
        #expect(requests.first?.value(atPath: "request.apns_push_type_override") == "voip", "\(r.stdout)")
        #expect(lines.last?["delivered"] == .bool(true), "\(r.stdout)")
        #expect(!r.stdout.contains("os_v2_app_"), "no REST key is printed: \(r.stdout)")
    }

    @Test func aVoIPPushThroughTheStandardAppViolatesVoip1() async throws {
        let f = try await Self.fixture(["voip-through-standard-app"])
        let r = try await Self.trigger(f, ["--send", "voip", "--json"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(TriggerFixture.violated(try TriggerFixture.lines(r).last) == ["ONESIGNAL-VOIP-1"], "\(r.stdout)")
    }

    /// Nobody subscribed: the conforming kit answers not delivered; one that says delivered breaks DELIV-1.
    @Test func deliveredToNobodyViolatesDeliv1() async throws {
        let clean = try await Self.fixture()
        let ok = try await Self.trigger(clean, ["--devices", "0", "--json"])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(try TriggerFixture.lines(ok).last?["delivered"] == .bool(false), "\(ok.stdout)")
        let f = try await Self.fixture(["delivered-on-zero"])
        let r = try await Self.trigger(f, ["--devices", "0"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("Outcome: violated — violates ONESIGNAL-DELIV-1 (exit 1)"), "\(r.stdout)")
    }

    @Test func anUnreachableKitIsInconclusive() async throws {
        let port = ClientTestPeer.closedPort()
        let r = try await RingcheckBinary.run([
            "trigger", "onesignal", "--url", "http://127.0.0.1:\(port)", "--settle", "0.2",
        ])
        #expect(r.status == 3, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("could not be reached"), "\(r.stdout)")
    }

    @Test(arguments: [
        (["--send", "vop"], "did you mean 'voip'"),
        (["--send", "voip", "--heading", "x"], "--send voip sends data only"),
        (["--data", "{"], "--data is not JSON"),
        (["--options", "[1]"], "--options must be a JSON object"),
        (["--no-devices"], "--no-devices does not apply to trigger onesignal"),
        (["--send", "broadcast", "--user", "u"], "--send broadcast names no user"),
        (["--devices", "101"], "--devices"),
        (["--ttl", "5"], "--ttl is a push-service option"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        let r = try await RingcheckBinary.run(["trigger", "onesignal", "--url", "http://127.0.0.1:1"] + arguments)
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
