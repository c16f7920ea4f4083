import JSON
import Testing

@testable import Conformance
@testable import OneSignal

/// An operation's answer: `delivered` read whatever the status (the seed's "no-op that returns false" names none),
/// from the path the target maps; what cannot be judged says why.
@Suite struct OneSignalAnswerTests {
    func read(_ status: Int, _ body: String, path: String = "delivered") -> Result<Bool, OneSignalAnswer.Problem> {
        OneSignalAnswer.read(status: status, body: Array(body.utf8), path: path)
    }

    @Test func notDeliveredIsReadFromAFailureStatus() {
        #expect(read(503, #"{"delivered": false, "reason": "push disabled"}"#) == .success(false))
        #expect(read(422, #"{"delivered": false}"#) == .success(false))
        #expect(read(200, #"{"delivered": true}"#) == .success(true))
        #expect(read(202, #"{"delivered": false}"#) == .success(false))
    }

    @Test func theFlagIsReadAtTheMappedPath() {
        #expect(read(200, #"{"ok": true}"#, path: "ok") == .success(true))
        #expect(read(200, #"{"result": {"sent": false}}"#, path: "result.sent") == .success(false))
    }

    @Test func anAnswerWithoutAFlagOrClaimingDeliveryOnFailureIsInconclusive() {
        #expect(
            read(503, "Service Unavailable")
                == .failure(.init("answered 503 with no 'delivered' in its body (Service Unavailable)")))
        #expect(
            read(200, #"{"delivered": "yes"}"#)
                == .failure(.init(#"answered 200, but its 'delivered' is "yes", not a boolean"#)))
        guard case .failure(let p) = read(500, #"{"delivered": true}"#) else {
            Issue.record("a 500 that claims delivery was judged")
            return
        }
        #expect(p.message.hasPrefix("answered 500, a failure, with 'delivered': true"))
    }
}
