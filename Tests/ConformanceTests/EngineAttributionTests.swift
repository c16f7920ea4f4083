import Conformance
import Foundation
import JSON
import ReferenceBackend
import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// Each failure names its own requirement: a mismatching field is charged to the requirement of that
/// field, a wait that names none stops the scenario instead of failing unattributed, and a push the
/// provider refused says so first.
@Suite(.serialized) struct EngineAttributionTests {
    /// A suite folder with the shipped catalogue and one scenario file.
    static func suite(_ scenario: String) throws -> (TemporaryDirectory, Suite) {
        let dir = TemporaryDirectory()
        for name in ["suite.yaml", "requirements.yaml"] {
            try dir.write(
                name, try String(contentsOfFile: ConformanceFixtures.callxSuite + "/" + name, encoding: .utf8))
        }
        try dir.write("test.yaml", scenario)
        return (dir, try Suite.load(directory: dir.path))
    }

    /// `apns-expiration` is CALLX-APNS-5's field: its mismatch fails that requirement and not the push
    /// type (CALLX-APNS-2) or the step's own (CALLX-APNS-1).
    @Test func aMismatchingFieldIsChargedToItsOwnRequirement() async throws {
        let stack = try await EngineTestStack.start(defects: [.apnsExpiration30])
        let results = await stack.run(["payload.apns-invitation"])
        await stack.stop()
        let o = try #require(results.first?.attempts.first)
        #expect(o.status == .fail)
        let step = o.failures.filter { $0.check.contains("steps[1] expectPush") }
        #expect(
            step.map(\.requirement) == ["CALLX-APNS-5"], "\(o.failures.map { "\($0.requirement ?? "-") \($0.check)" })")
        #expect(step.first?.actual.contains("headers.apns-expiration") == true)
        #expect(step.first?.actual.contains("apns-push-type") == false)
        let charged = Set(o.failures.compactMap(\.requirement))
        #expect(!charged.contains("CALLX-APNS-2") && !charged.contains("CALLX-APNS-1"), "\(charged)")
    }

    static let refused = """
        id: test.refused
        title: Every push to the phone is refused with 429
        requirements: [CALLX-E2E-1]
        devices:
          b-phone: {user: b, kind: apnsVoip}
        steps:
          - fault: {device: b-phone, respond: {status: 429, reason: TooManyProviderTokenUpdates}}
          - create: {as: a, callee: b, save: call}
          - expectPush: {to: b-phone, call: $call.callId, within: 2s REQUIREMENT}
        """

    /// A push the provider refused is the cause the failure names first, not only "0 matching".
    @Test func aFailureNamesTheProvidersRefusalFirst() async throws {
        let (dir, suite) = try Self.suite(
            Self.refused.replacingOccurrences(of: " REQUIREMENT", with: ", requirement: CALLX-E2E-1"))
        let stack = try await EngineTestStack.start()
        let results = await stack.run(in: suite)
        await stack.stop()
        _ = dir
        let o = try #require(results.first?.attempts.first)
        #expect(o.status == .fail)
        let f = try #require(o.failures.first)
        #expect(f.requirement == "CALLX-E2E-1")
        #expect(f.actual.hasPrefix("APNs refused "), "\(f.actual)")
        #expect(f.actual.contains("429 TooManyProviderTokenUpdates"), "\(f.actual)")
        #expect(f.actual.contains("0 matching push(es) within 2s"))
    }

    /// A wait that names no requirement judges nothing of its own: when it does not hold, the scenario
    /// stops as a harness error (its requirements inconclusive), never as an unattributed failure.
    @Test func aWaitWithoutARequirementStopsTheScenario() async throws {
        let (dir, suite) = try Self.suite(Self.refused.replacingOccurrences(of: " REQUIREMENT", with: ""))
        let stack = try await EngineTestStack.start()
        let results = await stack.run(in: suite)
        await stack.stop()
        _ = dir
        let o = try #require(results.first?.attempts.first)
        #expect(o.failures.isEmpty)
        guard case .error(let message) = o.status else {
            Issue.record("expected an error, got \(o.status)")
            return
        }
        #expect(message.contains("APNs refused") && message.contains("could not be judged"), "\(message)")
    }

    /// A raced answer that got the winner's snapshot (any status, as the seed allows) did not win.
    @Test func aLaterAnswerWithTheWinnersSnapshotIsNoWinner() {
        func exchange(_ status: Int, winner: String?) -> Exchange {
            var ex = Exchange(actor: "b", method: "POST", path: "/v1/calls/c/answer", headers: [], body: nil)
            ex.status = status
            ex.json =
                winner.map { ["state": "accepted", "answeredByInstallationId": .string($0)] } ?? ["state": "accepted"]
            return ex
        }
        #expect(CallxProfile.isWinner(exchange(200, winner: "phone"), answeringAs: "phone"))
        #expect(!CallxProfile.isWinner(exchange(200, winner: "phone"), answeringAs: "tablet"))
        #expect(!CallxProfile.isWinner(exchange(409, winner: "phone"), answeringAs: "tablet"))
        // Without a winner in the snapshot, a 2xx is a win (two of them are two winners).
        #expect(CallxProfile.isWinner(exchange(200, winner: nil), answeringAs: "tablet"))
        // Not an answer: any 2xx.
        #expect(CallxProfile.isWinner(exchange(201, winner: nil), answeringAs: nil))
    }

    /// Fixed accounts are shared between scenarios: the invariants judge only the events of the
    /// scenario's own calls (another scenario's event repeating an eventId is that scenario's business).
    @Test func invariantsJudgeOnlyTheScenariosOwnCalls() {
        func event(_ call: String, _ id: String, _ revision: String) -> JSONValue {
            [
                "schemaVersion": 1, "eventId": .string(id), "type": "call.ended", "callId": .string(call),
                "revision": .string(revision), "occurredAtMs": 1_790_000_000_000, "reason": "remoteEnded",
            ]
        }
        var feed = FeedState(installationId: "i", user: "b")
        feed.events = [event("mine", "e1", "2"), event("other", "e1", "3"), event("other", "e2", "2")]
        let judged = CallxRunState.judgedEvents(["b": feed], ownCalls: ["mine"])
        #expect(judged.map { $0.json["callId"]?.stringValue } == ["mine"])
        #expect(InvariantChecker.check(captures: [], events: judged, context: InvariantContext()).isEmpty)
        // Judged together, the shared eventId would be a violation.
        let all = CallxRunState.judgedEvents(["b": feed], ownCalls: ["mine", "other"])
        #expect(!InvariantChecker.check(captures: [], events: all, context: InvariantContext()).isEmpty)
    }
}
