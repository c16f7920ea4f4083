import Callx
import Conformance
import JSON
import Testing

/// The fake caller's judgement of a call, fed observations without any socket.
@Suite struct CallProgressTests {
    static let id = "3f2a9c1e-0000-4000-8000-000000000001"

    static func snapshot(_ state: String, _ extra: [(key: String, value: JSONValue)] = []) -> JSONValue {
        .object(
            [
                ("callId", .string(id)), ("state", .string(state)), ("createdAtMs", .int(Int64(1_000_000))),
                ("expiresAtMs", .int(Int64(1_030_000))),
            ] + extra)
    }

    static func accepted(_ installation: String, at ms: Int64 = 1_002_100) -> CallObservation {
        .event(
            [
                "type": "call.accepted", "callId": .string(id), "eventId": .string("e-\(installation)"),
                "answeredByInstallationId": .string(installation), "occurredAtMs": .int(ms),
            ])
    }

    static func ended(_ reason: String) -> CallObservation {
        .event(["type": "call.ended", "callId": .string(id), "eventId": "e-end", "reason": .string(reason)])
    }

    static func invitation(device: String, arrivalMs: Int64, accepted: Bool = true) -> CallObservation {
        .push(
            PushSighting(
                provider: "apns", device: device, type: "call.invited", accepted: accepted,
                status: accepted ? 200 : 400,
                arrivalMs: arrivalMs))
    }

    static func started() -> CallProgress {
        var p = CallProgress(callId: id)
        _ = p.observe(.snapshot(snapshot("ringing")), nowMs: 1_000_010)
        return p
    }

    @Test func anAnswerNamesTheInstallationAndTheBackendsOwnDelay() {
        var p = Self.started()
        let changes = p.observe(Self.accepted("b-phone"), nowMs: 1_002_300)
        #expect(changes == [.answered(installationId: "b-phone", afterMs: 2_100)])
        #expect(p.state == .accepted)
        // The same answer seen again (a GET snapshot) changes nothing.
        let again = p.observe(
            .snapshot(Self.snapshot("accepted", [("answeredByInstallationId", "b-phone")])), nowMs: 1_002_400)
        #expect(again.isEmpty)
        #expect(
            p.observe(.snapshot(Self.snapshot("ended", [("endReason", "remoteEnded")])), nowMs: 1_005_000) == [
                .ended(reason: "remoteEnded", by: .callee)
            ])
        let result = FakeCallResult.judge(p, duration: 5, interrupted: false)
        #expect(result.outcome == .answered)
        #expect(result.answeredBy == "b-phone")
        #expect(result.answeredAfterMs == 2_100)
    }

    @Test func whoEndedTheCallFollowsTheReason() {
        var ours = Self.started()
        ours.weAskedToEnd(reason: "callerCancelled")
        #expect(
            ours.observe(.snapshot(Self.snapshot("ended", [("endReason", "callerCancelled")])), nowMs: 1_001_000) == [
                .ended(reason: "callerCancelled", by: .caller)
            ])
        #expect(FakeCallResult.judge(ours, duration: 1, interrupted: false).outcome == .cancelled)

        var declined = Self.started()
        #expect(declined.observe(Self.ended("declined"), nowMs: 1_001_000) == [.ended(reason: "declined", by: .callee)])
        #expect(FakeCallResult.judge(declined, duration: 1, interrupted: false).outcome == .declined)

        var busy = Self.started()
        _ = busy.observe(Self.ended("busy"), nowMs: 1_001_000)
        #expect(FakeCallResult.judge(busy, duration: 1, interrupted: false).outcome == .declined)

        var expired = Self.started()
        #expect(
            expired.observe(Self.ended("unanswered"), nowMs: 1_030_100) == [.ended(reason: "unanswered", by: .backend)])
        #expect(FakeCallResult.judge(expired, duration: 30, interrupted: false).outcome == .unanswered)

        // Our own give-up is unanswered too, by the caller.
        var gaveUp = Self.started()
        gaveUp.weAskedToEnd(reason: "unanswered")
        _ = gaveUp.observe(.snapshot(Self.snapshot("ended", [("endReason", "unanswered")])), nowMs: 1_020_000)
        let result = FakeCallResult.judge(gaveUp, duration: 20, interrupted: false)
        #expect(result.outcome == .unanswered)
        #expect(result.endedBy == .caller)
    }

    @Test func aSecondWinnerIsAFinding() {
        var p = Self.started()
        _ = p.observe(Self.accepted("b-phone"), nowMs: 1_002_000)
        let changes = p.observe(
            .event(
                [
                    "type": "call.accepted", "callId": .string(Self.id), "eventId": "e-2",
                    "answeredByInstallationId": "b-tablet",
                ]), nowMs: 1_002_500)
        #expect(changes == [.finding("a second winner: b-tablet after b-phone had answered")])
        _ = p.observe(Self.ended("remoteEnded"), nowMs: 1_003_000)
        let result = FakeCallResult.judge(p, duration: 3, interrupted: false)
        #expect(result.outcome == .misbehaved)
        #expect(result.detail.contains("second winner"))
    }

    @Test func anInvitationLateAfterTheEndIsAFindingButOneInFlightIsNot() {
        var p = Self.started()
        _ = p.observe(Self.ended("declined"), nowMs: 1_001_000)
        // Sent just before the end and still travelling: within the margin.
        #expect(p.observe(Self.invitation(device: "phone", arrivalMs: 1_001_900), nowMs: 1_001_900).isEmpty)
        // A refused one rang nothing.
        #expect(p.observe(Self.invitation(device: "phone", arrivalMs: 1_004_000, accepted: false), nowMs: 1).isEmpty)
        let late = p.observe(Self.invitation(device: "tablet", arrivalMs: 1_003_500), nowMs: 1_003_500)
        #expect(late == [.finding("an invitation reached tablet 2.5 s after the call ended")])
        #expect(p.invitationCounts == (accepted: 2, rejected: 1))
        #expect(FakeCallResult.judge(p, duration: 4, interrupted: false).outcome == .misbehaved)
    }

    /// Judged from when the backend built it (`issuedAtMs`): a message built before the end is in flight
    /// however late it arrives on a busy machine; one built after the end, or a repeat, is not.
    @Test func anInvitationBuiltBeforeTheEndIsInFlightUpToTheBound() {
        var p = Self.started()
        _ = p.observe(Self.ended("callerCancelled"), nowMs: 1_001_000)
        func push(_ device: String, _ event: String, issued: Int64?, arrival: Int64, accepted: Bool = true)
            -> [CallChange]
        {
            p.observe(
                .push(
                    PushSighting(
                        provider: "fcm", device: device, type: "call.invited", accepted: accepted,
                        status: accepted ? 200 : 503, arrivalMs: arrival, eventId: event, issuedAtMs: issued)),
                nowMs: arrival)
        }
        #expect(push("tablet", "e1", issued: 1_000_500, arrival: 1_004_000).isEmpty)
        #expect(
            push("phone", "e2", issued: 1_002_500, arrival: 1_002_600) == [
                .finding("an invitation reached phone 1.6 s after the call ended")
            ])
        // The phone's first try was refused before the end; its retry after the end is a repeat, by arrival.
        #expect(push("watch", "e3", issued: 1_000_100, arrival: 1_000_200, accepted: false).isEmpty)
        #expect(
            push("watch", "e3", issued: 1_000_100, arrival: 1_005_000) == [
                .finding("an invitation reached watch 4.0 s after the call ended")
            ])
        // Without issuedAtMs, by arrival.
        #expect(
            push("pad", "e4", issued: nil, arrival: 1_003_000) == [
                .finding("an invitation reached pad 2.0 s after the call ended")
            ])
        // Built before the end but arriving more than 15 s after it: stuck, not in flight, by arrival.
        #expect(push("laptop", "e5", issued: 1_000_500, arrival: 1_016_000).isEmpty)
        #expect(
            push("desk", "e6", issued: 1_000_500, arrival: 1_016_001) == [
                .finding("an invitation reached desk 15.0 s after the call ended")
            ])
    }

    @Test func aCallThatComesBackToLifeIsAFinding() {
        var p = Self.started()
        _ = p.observe(Self.ended("unanswered"), nowMs: 1_030_000)
        let ringing = p.observe(.snapshot(Self.snapshot("ringing")), nowMs: 1_031_000)
        #expect(ringing == [.finding("the call went back to ringing after it was ended (a GET snapshot)")])
        let answered = p.observe(Self.accepted("b-phone", at: 1_031_500), nowMs: 1_031_500)
        #expect(answered == [.finding("the call was answered by b-phone after it had ended")])
    }

    @Test func aCallWhoseEndWasNotSeenIsInconclusive() {
        var p = Self.started()
        _ = p.observe(Self.accepted("b-phone"), nowMs: 1_002_000)
        let result = FakeCallResult.judge(p, duration: 3, interrupted: true)
        #expect(result.outcome == .inconclusive)
        #expect(result.detail.contains("still accepted"))
        #expect(result.json["interrupted"] == .bool(true))
    }

    @Test func theSummaryJSONNamesTheOutcomeAndCounts() {
        var p = Self.started()
        _ = p.observe(Self.invitation(device: "phone", arrivalMs: 1_000_020), nowMs: 1_000_020)
        _ = p.observe(Self.ended("declined"), nowMs: 1_001_000)
        let json = FakeCallResult.judge(p, duration: 1.2345, interrupted: false).json
        #expect(json["kind"] == "summary")
        #expect(json["outcome"] == "declined")
        #expect(json["endReason"] == "declined")
        #expect(json["endedBy"] == "callee")
        #expect(json.value(atPath: "invitations.accepted") == .int(1))
        #expect(json["durationS"] == .double(1.235) || json["durationS"] == .double(1.234))
    }
}
