import JSON
import PushMocks
import TestSupport
import Testing

@testable import Callx
@testable import Conformance

/// Rules across pushes: no invitation after the call stopped ringing, no second invitation per device and call.
@Suite struct InvariantTimelineTests {
    let x = InvariantFixture()
    typealias F = InvariantFixture

    // MARK: Invitations after the call ended, was answered or expired

    /// The engine saw the call ended at start + 5 s; the margin is 1 s. Each push is stamped as sent when it arrived.
    @Test(arguments: [(Int64(4_000), true), (6_000, true), (6_001, false), (20_000, false)])
    func invitationAfterEnd(arrivalAfterStart: Int64, ok: Bool) async throws {
        let call = CallTimeline(callId: F.callId, expiresAtMs: F.start + 30_000, endedObservedAtMs: F.start + 5_000)
        let sent = F.invitation(issuedAtMs: F.start + arrivalAfterStart)
        let capture = await x.apns(callx: sent, atMs: F.start + arrivalAfterStart)
        let violations = x.check([capture], context: x.context(calls: [call]))
        #expect(violations.isEmpty == ok, "\(violations)")
        if !ok {
            let v = try #require(violations.first)
            #expect(v.requirement.rawValue == "CALLX-EXP-2" && v.level == .must)
            #expect(v.expected.contains("after call \(F.callId) was ended at \(F.start + 5_000)"))
            #expect(v.actual.contains("\(arrivalAfterStart - 5_000) ms later"))
            #expect(v.captures == [capture.sequence])
        }
    }

    /// Judged by arrival against the moment the end was accepted: a push that arrived before it is never
    /// "after the end", not even with no in-flight margin at all.
    @Test(arguments: [Int64(0), 1, 4_999])
    func aPushThatArrivedBeforeTheEndIsNeverAfterIt(arrivalAfterStart: Int64) async {
        let call = CallTimeline(callId: F.callId, expiresAtMs: F.start + 30_000, endedObservedAtMs: F.start + 5_000)
        let capture = await x.apns(atMs: F.start + arrivalAfterStart)
        #expect(x.check([capture], context: x.context(calls: [call], margin: 0)).isEmpty)
        let late = await x.apns(callx: F.invitation(issuedAtMs: F.start + 5_001), atMs: F.start + 5_001)
        #expect(
            x.check([late], context: x.context(calls: [call], margin: 0)).map(\.requirement.rawValue) == ["CALLX-EXP-2"]
        )
    }

    @Test func marginIsConfigurable() async {
        let call = CallTimeline(callId: F.callId, answeredObservedAtMs: F.start + 1_000)
        let sent = F.fcmMessage(callx: F.invitation(issuedAtMs: F.start + 1_400), ttl: "28s")
        let capture = await x.fcm(sent, atMs: F.start + 1_400)
        #expect(x.check([capture], context: x.context(calls: [call], margin: 500)).isEmpty)
        let strict = x.check([capture], context: x.context(calls: [call], margin: 100))
        #expect(strict.map(\.requirement.rawValue) == ["CALLX-EXP-2"])
        #expect(strict.first?.expected.contains("was answered") == true)
    }

    @Test func invitationAfterExpiry() async {
        // The invitation's own expiresAtMs counts even when the engine has no timeline for the call.
        // Stamped after its own expiry, it breaks CALLX-INV-6 too.
        let late = await x.apns(callx: F.invitation(issuedAtMs: F.start + 31_500), atMs: F.start + 31_500)
        #expect(x.ids([late]) == ["CALLX-INV-6", "CALLX-EXP-2"])
        let inMargin = await x.apns(atMs: F.start + 30_900)
        #expect(x.ids([inMargin]).isEmpty)
    }

    @Test func rejectedInvitationsAfterEndCountToo() async throws {
        // Sending is the violation: the backend knew the call had ended, whatever the provider answered.
        _ = try x.f.mocks.faults.install(FaultPlan(times: 1, respond: FaultResponse(status: 503)))
        let call = CallTimeline(callId: F.callId, endedObservedAtMs: F.start + 1_000)
        let capture = await x.apns(callx: F.invitation(issuedAtMs: F.start + 10_000), atMs: F.start + 10_000)
        #expect(capture.outcome != .accepted)
        #expect(x.ids([capture], context: x.context(calls: [call])) == ["CALLX-EXP-2"])
    }

    /// A loaded machine can hold a push the backend sent before the answer seconds in its HTTP/2 client:
    /// an invitation stamped (`issuedAtMs`) no later than the stop is in flight up to the bound, not sent after.
    @Test(arguments: [
        (issued: Int64(900), arrival: Int64(3_350), ok: true),  // sent before the answer, arrived 2.35 s after
        (issued: 1_000, arrival: 15_999, ok: true),  // stamped at the very moment, at the bound
        (issued: 1_000, arrival: 16_001, ok: false),  // past the bound: not in flight any more
        (issued: 1_001, arrival: 2_500, ok: false),  // stamped after the answer: sent after it
    ])
    func invitationSentBeforeTheStopIsInFlight(issued: Int64, arrival: Int64, ok: Bool) async {
        let call = CallTimeline(callId: F.callId, expiresAtMs: F.start + 60_000, answeredObservedAtMs: F.start + 1_000)
        let sent = F.invitation(issuedAtMs: F.start + issued, expiresAtMs: F.start + 60_000)
        let capture = await x.apns(callx: sent, atMs: F.start + arrival)
        #expect(x.ids([capture], context: x.context(calls: [call])).isEmpty == ok)
    }

    @Test func withoutAnIssuedAtMsOnlyTheMarginExcuses() async {
        let call = CallTimeline(callId: F.callId, expiresAtMs: F.start + 60_000, answeredObservedAtMs: F.start + 1_000)
        let bare = F.invitation(expiresAtMs: F.start + 60_000, [("issuedAtMs", nil)])
        let inMargin = await x.apns(callx: bare, atMs: F.start + 1_900)
        #expect(x.ids([inMargin], context: x.context(calls: [call])).isEmpty)
        let late = await x.apns(callx: bare, atMs: F.start + 2_100)
        #expect(x.ids([late], context: x.context(calls: [call])) == ["CALLX-EXP-2"])
    }

    @Test func signalsAfterEndAreFine() async {
        let call = CallTimeline(callId: F.callId, endedObservedAtMs: F.start + 1_000)
        let signal = await x.fcm(F.fcmMessage(callx: F.signal(), priority: "NORMAL", ttl: nil), atMs: F.start + 9_000)
        #expect(x.ids([signal], context: x.context(calls: [call])).isEmpty)
    }

    // MARK: Duplicate invitations

    @Test func repeatWithTheSameEventIdIsAllowed() async {
        let first = await x.apns()
        let again = await x.apns(atMs: F.start + 900)
        #expect(x.check([first, again]).isEmpty)
    }

    @Test func secondInvitationWithANewEventIdIsAViolation() async throws {
        let first = await x.apns()
        let second = await x.apns(callx: F.invitation(eventId: "evt-invite-002"), atMs: F.start + 900)
        let v = try #require(x.check([first, second]).first)
        #expect(v.requirement.rawValue == "CALLX-OUTBOX-4" && v.level == .must)
        #expect(v.captures == [second.sequence, first.sequence])
        #expect(v.expected.contains("\"evt-invite-001\"") && v.actual == "\"evt-invite-002\"")
    }

    @Test func invitationsWithoutEventIdsCannotBeTold() async {
        let bare = F.invitation([("eventId", nil)])
        let first = await x.fcm(F.fcmMessage(callx: bare))
        let second = await x.fcm(F.fcmMessage(callx: bare), atMs: F.start + 300)
        #expect(x.ids([first, second]).filter { $0 == "CALLX-OUTBOX-4" }.count == 1)
    }

    @Test func retryAfterARejectionIsNotADuplicate() async throws {
        _ = try x.f.mocks.faults.install(FaultPlan(times: 1, respond: FaultResponse(status: 429)))
        let refused = await x.apns()
        let retried = await x.apns(callx: F.invitation(eventId: "evt-invite-002"), atMs: F.start + 1_000)
        #expect(refused.outcome != .accepted && retried.outcome == .accepted)
        #expect(x.check([refused, retried]).isEmpty)
    }

    @Test func acceptedThenResetStillCountsAsDelivered() async throws {
        // The provider accepted the first push but the backend never saw the 200: a resend must repeat the eventId.
        _ = try x.f.mocks.faults.install(FaultPlan(times: 1, connection: .resetAfterAccept))
        let first = await x.apns()
        #expect(first.outcome == .accepted)
        let resent = await x.apns(callx: F.invitation(eventId: "evt-invite-002"), atMs: F.start + 1_000)
        #expect(x.ids([first, resent]) == ["CALLX-OUTBOX-4"])
    }

    @Test func differentDevicesAndCallsAreIndependent() async {
        let phone = await x.apns()
        let tablet = await x.fcm()
        let otherCall = await x.apns(callx: F.invitation(callId: "call-2", eventId: "evt-invite-003"))
        #expect(x.check([phone, tablet, otherCall]).isEmpty)
    }

    @Test func capturesAreJudgedInArrivalOrder() async throws {
        let first = await x.apns()
        let second = await x.apns(callx: F.invitation(eventId: "evt-invite-002"), atMs: F.start + 900)
        let v = try #require(x.check([second, first]).first)
        #expect(v.captures.first == second.sequence)
    }

    @Test func oneEventIdNamesOneInvitation() async throws {
        let first = await x.apns()
        let other = await x.fcm(F.fcmMessage(callx: F.invitation(callId: "call-2")))
        let v = try #require(x.check([first, other]).first)
        #expect(v.requirement.rawValue == "CALLX-INV-5")
        #expect(v.captures == [other.sequence, first.sequence])
    }
}
