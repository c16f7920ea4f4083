import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// A backend whose end reason is the ending device's own (`callerCancelled` and `remoteEnded` are both its
/// `localHangup`): its target file maps several reference values to one word, requests send that word for each,
/// and an answer's shared word is not read back: a check on it is not applicable, the rest still judged.
@Suite struct ManyToOneValueMapTests {
    static let folded = """
        values:
          reason: {callerCancelled: hangup, remoteEnded: hangup, declined: decline}
        """

    func mapping(_ extra: String) throws(SuiteLoadError) -> TargetMapping {
        try TargetFile.load(
            text: "baseURL: http://h\n\(TargetFileLoaderTests.users)\n\(extra)", file: "t.yaml"
        ).mapping
    }

    @Test func severalReferenceValuesGoOutAsOneWord() throws {
        let m = try mapping(Self.folded)
        for reason in ["callerCancelled", "remoteEnded"] {
            let end = PreparedRequest(
                actor: "a", method: "POST", path: "", body: ["operationId": "op-1", "reason": .string(reason)],
                operation: .end, values: ["callId": "c-1", "userId": "ua"])
            #expect(m.apply(end).body?["reason"] == "hangup", "\(reason)")
        }
    }

    @Test func aSharedWordIsNotReadBackAndSaysWhichMap() throws {
        let m = try mapping(Self.folded)
        let answer = try JSONValue.parse(#"{"state": "ended", "endReason": "hangup", "reason": "decline"}"#)
        let n = m.normalize(.get, status: 200, json: answer)
        // The shared word stays the backend's; a word only one value maps to is read back.
        #expect(n.json?["endReason"] == "hangup")
        #expect(n.json?["reason"] == "declined")
        let why = try #require(m.values.unreadable("endReason", "hangup"))
        #expect(why.contains("values.reason maps callerCancelled and remoteEnded to \"hangup\""), "\(why)")
        #expect(m.values.unreadable("reason", "decline") == nil)
        #expect(m.values.unreadable("state", "hangup") == nil)
        #expect(CallxAPIMapping(mapping: m).unreadableValue("endReason", "hangup") == why)
    }

    @Test func wrongMapsStillHaveTheirLineAndColumn() {
        do {
            _ = try mapping("values:\n  reason: {callerCancelled: hangup, remoteEndd: hangup}")
            Issue.record("a misspelt reference value was accepted")
        } catch {
            #expect(
                error.errors.map(\.description) == [
                    "t.yaml:7:37: values.reason.remoteEndd: 'remoteEndd' is no reason of the reference design (did you mean 'remoteEnded'?) (known: localHangup, declined, remoteEnded, callerCancelled, unanswered, busy, failed, answeredElsewhere, declinedElsewhere)"
                ])
        }
    }

    /// `expectEvent` on a folded field: the event whose reason is the shared word is the one expected (the
    /// matcher on it is skipped, with a timeline note naming the map); a matcher on another field still
    /// decides.
    static let feedScenario = """
        id: values.folded-feed
        title: a feed event carries the shared word of a folded reason
        requirements: [CALLX-E2E-2]
        devices:
          b-phone: {user: b, kind: apnsVoip}
        steps:
          - expectEvent: {device: b-phone, type: call.ended, call: c1, match: {reason: callerCancelled}, within: 5s, requirement: CALLX-E2E-2}
          - expectEvent: {device: b-phone, type: call.ended, call: c2, match: {reason: remoteEnded, revision: "4"}, within: 1s, requirement: CALLX-E2E-2}
        """

    /// A backend whose feed holds `call.ended` of c1 and c2, both with its shared word `hangup` (c2 at
    /// revision 3, where the scenario expects 4), and that answers 200 to anything else.
    static let feedHandler = ClosureHandler { request in
        guard request.path.hasSuffix("-events") else { return .json(200, "{}") }
        let events =
            request.query["cursor"] == "2"
            ? ""
            : ["c1", "c2"].enumerated().map { i, call in
                #"{"schemaVersion":1,"eventId":"e-\#(call)","type":"call.ended","callId":"\#(call)","revision":"3","occurredAtMs":\#(1_700_000_000_000 + i),"reason":"hangup"}"#
            }.joined(separator: ",")
        return .json(200, #"{"events":[\#(events)],"nextCursor":"2"}"#)
    }

    @Test func anEventWithTheSharedWordMeetsAnExpectEventOnTheFoldedFieldWithANote() async throws {
        let suite = try ProfileEngineTests.suite(Self.feedScenario, profile: CallxProfile())
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let outcome = try await withTestServer(handler: Self.feedHandler) { server in
            let file = try TargetFile.load(
                text: "baseURL: http://127.0.0.1:\(server.port)\n\(TargetFileLoaderTests.users)\n\(Self.folded)",
                file: "t.yaml")
            let engine = try ScenarioEngine(
                target: file.target(defaultAppId: mocks.providers.credentials.bundleID), mocks: mocks,
                catalogue: suite.catalogue)
            defer { engine.shutdown() }
            return await engine.run(try #require(suite.scenarios.first), run: 0)
        }
        let notes = outcome.timeline.filter { $0.kind == .note }.map(\.summary)
        let skipped = notes.filter { $0.contains("expectEvent call.ended for b-phone: reason not applicable") }
        #expect(skipped.count == 1, "\(notes)")
        #expect(skipped.allSatisfy { $0.contains("values.reason maps callerCancelled and remoteEnded to \"hangup\"") })
        // c1's step passed on the shared word; c2's failed on its revision alone, never on its reason.
        let failures = outcome.failures.filter { $0.requirement == "CALLX-E2E-2" }
        #expect(failures.count == 1, "\(TargetFileStack.findings(outcome))")
        #expect(failures.allSatisfy { $0.check.contains("steps[1] expectEvent") && $0.actual.contains("revision") })
        #expect(failures.allSatisfy { !$0.actual.contains("reason") }, "\(TargetFileStack.findings(outcome))")
    }

    @Test func theCheckOnTheFoldedReasonIsNotApplicableAndTheRestIsJudged() async throws {
        // The reference stores and answers the word it is sent: both reasons reach it as `localHangup`.
        var file = try TargetFile.load(path: TargetFileBackendTests.examples + "/reference-alternate.yaml")
        file.mapping.values.maps["reason"] = ["callerCancelled": "localHangup", "remoteEnded": "localHangup"]
        let ids = ["calls.ended-snapshot-reason"]
        let results = try await TargetFileStack.run(file, shape: .alternate, slots: 1, only: ids)
        #expect(results.count == 1)
        for (scenario, attempts) in results {
            let a = try #require(attempts.first)
            #expect(a.status == .pass, "\(scenario.id): \(a.status) \(TargetFileStack.findings(a))")
            let notes = a.timeline.filter { $0.kind == .note && $0.summary.contains("not applicable") }
            #expect(
                notes.contains { $0.summary.contains("values.reason maps callerCancelled and remoteEnded") },
                "\(scenario.id): \(a.timeline.filter { $0.kind == .note }.map(\.summary))")
        }
        // The same checks still judge the other fields: a state the map reads wrongly fails CALLX-CALL-9,
        // and its findings name the state, never the reason that could not be read back.
        file.mapping.values.maps["state"] = ["ringing": "ended", "ended": "ringing"]
        let broken = try await TargetFileStack.run(
            file, shape: .alternate, slots: 1, only: ["calls.ended-snapshot-reason"])
        let b = try #require(broken.first?.attempts.first)
        #expect(b.status == .fail)
        let charged = b.failures.filter { $0.requirement == "CALLX-CALL-9" }
        #expect(!charged.isEmpty, "\(TargetFileStack.findings(b))")
        #expect(charged.allSatisfy { $0.actual.contains("state") && !$0.actual.contains("endReason") })
    }
}
