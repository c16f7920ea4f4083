import Conformance
import JSON
import Testing

/// Who ended a call: the fake caller knows its own end request, whatever reason the backend stored.
@Suite struct CallProgressEnderTests {
    typealias P = CallProgressTests

    @Test func anAcceptedEndOfOursIsTheCallersWhateverTheStoredReason() {
        var p = P.started()
        p.weAskedToEnd(reason: "remoteEnded")
        p.ourEndAccepted(stateWhenSent: p.state)
        // The backend stored its own word for the caller's hang-up.
        _ = p.observe(.snapshot(P.snapshot("ended", [("endReason", "hangup")])), nowMs: 1_005_000)
        #expect(p.endedBy == .caller)
        #expect(p.endReason == "hangup")
    }

    @Test func anEndLearnedBeforeOurAcceptedRequestStaysWhereItCameFrom() {
        var p = P.started()
        _ = p.observe(P.ended("declined"), nowMs: 1_004_000)
        p.weAskedToEnd(reason: "remoteEnded")
        // The call had ended before we sent ours: our 200 replays the terminal snapshot.
        p.ourEndAccepted(stateWhenSent: .ended)
        #expect(p.endedBy == .callee)
    }

    @Test func anEventBeforeTheAnswerToOurRequestIsCorrected() {
        var p = P.started()
        p.weAskedToEnd(reason: "callerCancelled")
        let sent = p.state
        // The feed tells of the end (in the backend's words) before our request's answer is read.
        _ = p.observe(P.ended("cancel"), nowMs: 1_004_000)
        #expect(p.endedBy == .callee)
        p.ourEndAccepted(stateWhenSent: sent)
        #expect(p.endedBy == .caller)
    }

    @Test func withoutOurRequestAReasonThatIsNotOursIsTheCallees() {
        var p = P.started()
        p.weAskedToEnd(reason: "remoteEnded")
        _ = p.observe(.snapshot(P.snapshot("ended", [("endReason", "hangup")])), nowMs: 1_005_000)
        #expect(p.endedBy == .callee)
    }
}
