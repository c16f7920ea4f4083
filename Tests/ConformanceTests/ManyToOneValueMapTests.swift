import Foundation
import JSON
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
