import JSON
import PushMocks
import TestSupport
import Testing

@testable import Conformance
@testable import DialStack

/// A push belongs to the call whose ID it carries, as a string under any key (`DialStackPush.tie`): never to the
/// latest webhook by order. One carrying no announced call's ID but naming a call, or carrying several, is
/// unattributed (a note, no requirement); one carrying no call ID at all is DIALSTACK-PUSH-1's, whatever it answers.
extension DialStackInvariantTests {
    static let otherCallId = "call_second0000000000000000"

    func judge(_ capture: Capture, device: String = "b-phone", user: String = "b", deliveries: [DialStackDelivery])
        -> (violations: [Violation], notes: [String])
    {
        DialStackInvariants.judge(
            [DialStackJudgedPush(capture: capture, device: device, user: user)], deliveries: deliveries,
            voipTopic: f.mocks.credentials.voipTopic)
    }

    @Test func aPushNamingACallNoWebhookAnnouncedIsUnattributedNotPUSH1() async {
        let named = await apns([("call_id", "call_other")])
        let found = judge(named, device: "c-phone", user: "c", deliveries: [Self.delivery()])
        // Not judged against the latest webhook: neither PUSH-1 ("another call's") nor WAKE-2 for c's phone.
        #expect(found.violations.isEmpty, "\(found.violations)")
        #expect(found.notes.count == 1, "\(found.notes)")
        #expect(found.notes.first?.contains("names call call_other, which no webhook announced") == true)
    }

    @Test func aPushCarryingTwoWebhooksCallsIsUnattributable() async {
        var second = Self.delivery(eventId: "evt_2", sentAtMs: Self.start - 50)
        second.callId = Self.otherCallId
        second.data["call_id"] = Self.otherCallId
        let both = await apns([("id", .string(Self.otherCallId))])
        let found = judge(both, device: "c-phone", user: "c", deliveries: [Self.delivery(), second])
        #expect(found.violations.isEmpty, "\(found.violations)")
        #expect(found.notes.first?.contains("carries the call IDs of \(Self.callId) and \(Self.otherCallId)") == true)
        // Carrying one of them, it is that one's: another user's device is WAKE-2's.
        let one = await apns([("call_id", nil), ("id", .string(Self.otherCallId))])
        #expect(
            judge(one, device: "c-phone", user: "c", deliveries: [Self.delivery(), second]).violations.map(
                \.requirement) == ["DIALSTACK-WAKE-2"])
    }

    /// Carrying this scenario's call and another scenario's, a push is neither's: no WAKE-2 for c's phone.
    @Test func aPushCarryingThisAndAnotherScenariosCallIsUnattributable() async {
        let both = await apns([("id", .string(Self.otherCallId))])
        let found = DialStackInvariants.judge(
            [DialStackJudgedPush(capture: both, device: "c-phone", user: "c")], deliveries: [Self.delivery()],
            voipTopic: f.mocks.credentials.voipTopic, otherCalls: [Self.otherCallId])
        #expect(found.violations.isEmpty, "\(found.violations)")
        #expect(found.notes.first?.contains("carries the call IDs of") == true, "\(found.notes)")
    }

    /// A push with no call ID anywhere breaks PUSH-1 whatever it answers, and is judged against no webhook: to
    /// another user's device it is not WAKE-2's (which webhook woke it is unknown).
    @Test func aPushWithoutAnyCallIdIsPUSH1sAndJudgedAgainstNoWebhook() async {
        let bare = await apns([("call_id", nil)])
        let found = judge(bare, device: "c-phone", user: "c", deliveries: [Self.delivery()])
        #expect(found.violations.map(\.requirement) == ["DIALSTACK-PUSH-1"], "\(found.violations)")
        #expect(found.notes.isEmpty)
    }

    /// `check-payload` has no webhooks: which value is the call ID cannot be told, so PUSH-1 is not judged (the
    /// library-shaped push is not charged "absent").
    @Test func capturesAloneDoNotJudgeTheCallId() async throws {
        let library = await apns([("call_id", nil), ("id", .string(Self.callId))])
        let found = try DialStackCapturedPushes.violations(of: [library], context: CapturedPushContext())
        #expect(!found.map(\.requirement).contains("DIALSTACK-PUSH-1"), "\(found)")
    }

    /// `check-payload --call-id ID`: the user names the calls the pushes are for, so PUSH-1 is judged again: a push
    /// carrying none of them fails, naming it (a push naming another call as much as one naming none); one carrying
    /// a given ID under any key (the library's `id`) passes; an empty ID is an input error.
    @Test func capturesJudgedWithGivenCallIdsJudgeTheCallId() async throws {
        let given = CapturedPushContext(callIds: ["call_unrelated", Self.callId])
        let library = await apns([("call_id", nil), ("id", .string(Self.callId))])
        #expect(try DialStackCapturedPushes.violations(of: [library], context: given).isEmpty)
        let bare = await apns([("call_id", nil)])
        let found = try DialStackCapturedPushes.violations(of: [bare], context: given)
        #expect(found.map(\.requirement) == ["DIALSTACK-PUSH-1"], "\(found)")
        #expect(found.first?.captures == [bare.sequence], "the finding names the push")
        #expect(found.first?.description.hasSuffix("got absent [capture #\(bare.sequence)]") == true, "\(found)")
        let other = await fcm(data: [("call_id", "call_other")])
        let named = try DialStackCapturedPushes.violations(of: [other], context: given)
        #expect(named.map(\.requirement) == ["DIALSTACK-PUSH-1"], "\(named)")
        #expect(named.first?.description.contains("call_other") == true, "\(named)")
        #expect(throws: PayloadInputError.self) {
            try DialStackCapturedPushes.violations(of: [library], context: CapturedPushContext(callIds: [""]))
        }
        #expect(DialStackCapturedPushes.unjudged.contains("--call-id"), "without it, PUSH-1 is said to need it")
        #expect(!DialStackCapturedPushes.unjudged(given: given).contains("the call ID ("))
    }

    /// A load run files each push under the webhook whose call ID it carries under any key: a library-shaped push
    /// wakes its devices (no "never pushed", no PUSH-1).
    @Test func theLoadJudgeTiesLibraryShapedPushesToTheirWebhook() async {
        let phone = VirtualCallee(
            name: "b's phone", kind: .apnsVoip, environment: .production, installationId: "b-phone",
            token: MockFixture.deviceToken)
        let pixel = VirtualCallee(name: "b's pixel", kind: .fcm, installationId: "b-pixel", token: MockFixture.fcmToken)
        let judge = DialStackLoadJudge(
            owners: [
                MockFixture.deviceToken.lowercased(): (phone.name, "b"),
                MockFixture.fcmToken.lowercased(): (pixel.name, "b"),
            ], levels: [:], voipTopic: f.mocks.credentials.voipTopic, watching: true, lingerMs: 0)
        var unit = DialStackLoadUnit(
            script: .wakeUp, eventId: "evt_1", callId: Self.callId, type: DialStackEvent.wakeUpType, user: "b",
            signature: .valid, devices: [phone, pixel])
        unit.deliveries = [Self.delivery()]
        judge.open(unit)
        judge.file(await apns([("call_id", nil), ("id", .string(Self.callId))]))
        judge.file(await fcm(data: [("call_id", nil), ("id", .string(Self.callId))]))
        // Another call's push (two calls carried, or a call never sent) is noted, not charged.
        judge.file(await apns([("call_id", "call_never_sent")]))
        judge.close(Self.callId)
        judge.judgeClosed(all: true)
        let found = judge.findings
        #expect(found.history.isEmpty, "\(found.history.map(\.message))")
        #expect(found.invariants.isEmpty, "\(found.invariants.map(\.message))")
        #expect(found.wakeUps == 2)
        #expect(found.notes.count == 1 && found.notes[0].contains("names call call_never_sent"), "\(found.notes)")
    }
}
