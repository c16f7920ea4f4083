import JSON
import PushMocks
import TestSupport
import Testing

@testable import Conformance
@testable import PushService

/// The push-service invariants on genuine captures (requests fed to in-process mocks on a manual clock): conforming
/// pushes pass, and each rule, broken alone, is charged to its own requirement and no other.
@Suite struct PushServiceInvariantTests {
    static let start: Int64 = 1_790_000_000_000
    static let callId = "6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e"
    static let alertToken = "cd" + String(repeating: "1", count: 60) + "ef"
    let f = MockFixture(startMs: start)

    static let phone = PushServiceDevice(
        name: "b-phone", user: "b", platform: .ios, token: alertToken, voipToken: MockFixture.deviceToken,
        sandbox: false)
    static let pixel = PushServiceDevice(
        name: "b-pixel", user: "b", platform: .android, token: MockFixture.fcmToken, voipToken: nil, sandbox: false)

    static func notification(_ body: JSONValue, marker: String = "r1-n1") -> PushServiceNotification {
        PushServiceNotification(
            marker: marker, body: body, sentAtMs: start - 100, status: 200, id: "n1", devices: ["b-phone", "b-pixel"])
    }

    static let incoming = notification([
        "call": [
            "action": "incoming", "id": .string(callId), "caller_name": "A", "handle": "0901", "avatar": "https://a",
            "is_video": false, "timeout": 45,
        ],
        "data": ["room": "abc", .init(PushServiceNotification.markerKey): "r1-n1"],
    ])

    static var callPayload: [(String, JSONValue?)] {
        [
            ("type", "incoming_call"), ("call_id", .string(callId)), ("caller_name", "A"), ("caller_handle", "0901"),
            ("caller_avatar", "https://a"), ("is_video", "false"), ("timeout", "45"), ("room", "abc"),
            (PushServiceNotification.markerKey, "r1-n1"),
        ]
    }

    static func object(_ base: [(String, JSONValue?)], _ changes: [(String, JSONValue?)] = []) -> JSONValue {
        var members = base.compactMap { m in m.1.map { (key: m.0, value: $0) } }
        for (key, value) in changes {
            members.removeAll { $0.key == key }
            if let value { members.append((key, value)) }
        }
        return .object(members)
    }

    func apns(token: String = MockFixture.deviceToken, headers: [(String, String?)] = [], _ payload: JSONValue)
        async -> Capture
    {
        f.clock.set(ms: Self.start)
        var members: [(key: String, value: JSONValue)] = [("aps", .object([]))]
        members += payload.objectValue ?? []
        let defaults: [(String, String?)] = [("apns-expiration", String(Self.start / 1000 + 45))]
        let request = f.apnsRequest(
            token: token, headers: defaults + headers, body: Array(JSONValue.object(members).serialized().utf8))
        _ = await f.mocks.apns(.production).handle(request)
        return f.mocks.log.captures().last!
    }

    func fcm(data: JSONValue, android: JSONValue = ["priority": "high"], notification: JSONValue? = nil) async
        -> Capture
    {
        var message: [(key: String, value: JSONValue)] = [
            ("token", .string(MockFixture.fcmToken)), ("android", android), ("data", data),
        ]
        if let notification { message.append(("notification", notification)) }
        f.clock.set(ms: Self.start)
        let token = await f.accessToken()
        f.clock.set(ms: Self.start)
        _ = await f.mocks.fcm.handle(
            f.fcmRequest(JSONValue.object([(key: "message", value: .object(message))]), accessToken: token))
        return f.mocks.log.captures(CaptureFilter(mock: .fcm)).last!
    }

    func violations(_ c: Capture, _ device: PushServiceDevice = phone, _ n: PushServiceNotification = incoming)
        -> [Violation]
    {
        PushServiceInvariants.check(
            [PushServiceJudgedPush(capture: c, device: device)], notifications: [n],
            bundleId: f.mocks.credentials.bundleID, voipTopic: f.mocks.credentials.voipTopic)
    }

    func only(_ id: RequirementID, _ found: [Violation], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.map(\.requirement) == [id], "\(found)", sourceLocation: sourceLocation)
    }

    @Test func conformingCallPushesPass() async {
        let voip = await apns(Self.object(Self.callPayload))
        #expect(violations(voip).isEmpty, "\(violations(voip))")
        let android = await fcm(data: Self.object(Self.callPayload))
        #expect(violations(android, Self.pixel).isEmpty, "\(violations(android, Self.pixel))")
    }

    /// FCM v1's `android.data` overrides `message.data` (`FCMAppData`): the payload rules read it there.
    @Test func androidDataIsThePayload() async {
        let moved = await fcm(data: .null, android: ["priority": "high", "data": Self.object(Self.callPayload)])
        #expect(violations(moved, Self.pixel).isEmpty, "\(violations(moved, Self.pixel))")
        let missing = Self.object(Self.callPayload, [("caller_handle", nil)])
        let found = violations(await fcm(data: .null, android: ["priority": "high", "data": missing]), Self.pixel)
        only(PushServiceRequirement.keys, found)
        #expect(found.first?.field == "body.message.android.data.caller_handle")
    }

    @Test func aCallAsAnAlertToTheAlertTokenIsCALL1s() async {
        let c = await apns(
            token: Self.alertToken,
            headers: [("apns-push-type", "alert"), ("apns-topic", f.mocks.credentials.bundleID)],
            Self.object(Self.callPayload))
        #expect(Set(violations(c).map(\.requirement)) == [PushServiceRequirement.callVoIP], "\(violations(c))")
    }

    @Test func aNumericValueIsPAYLOAD1s() async {
        only(
            PushServiceRequirement.strings, violations(await apns(Self.object(Self.callPayload, [("is_video", false)])))
        )
    }

    @Test func aMissingSeedKeyIsPAYLOAD2s() async {
        only(
            PushServiceRequirement.keys, violations(await apns(Self.object(Self.callPayload, [("caller_handle", nil)])))
        )
    }

    @Test func aNotificationBlockOnAndroidIsANDROID1s() async {
        let c = await fcm(data: Self.object(Self.callPayload), notification: ["title": "A"])
        only(PushServiceRequirement.androidDataOnly, violations(c, Self.pixel))
    }

    @Test func normalPriorityOnAndroidIsANDROID2s() async {
        let c = await fcm(data: Self.object(Self.callPayload), android: ["priority": "normal"])
        only(PushServiceRequirement.androidPriority, violations(c, Self.pixel))
    }

    @Test func anEndedCallAsVoIPIsCALL5sAndANewIdCALL4s() async {
        let ended = Self.notification([
            "call": ["action": "ended", "id": .string(Self.callId)],
            "data": [.init(PushServiceNotification.markerKey): "r1-n1"],
        ])
        let payload: [(String, JSONValue?)] = [
            ("type", "call_ended"), ("call_id", .string(Self.callId)), (PushServiceNotification.markerKey, "r1-n1"),
        ]
        only(PushServiceRequirement.endedNotVoIP, violations(await apns(Self.object(payload)), Self.phone, ended))
        let background = await apns(
            token: Self.alertToken,
            headers: [
                ("apns-push-type", "background"), ("apns-priority", "5"), ("apns-topic", f.mocks.credentials.bundleID),
            ], Self.object(payload))
        #expect(violations(background, Self.phone, ended).isEmpty, "\(violations(background, Self.phone, ended))")
        let newId = await fcm(data: Self.object(payload, [("call_id", "0a1b2c3d-0000-4000-8000-000000000000")]))
        only(PushServiceRequirement.endedSameId, violations(newId, Self.pixel, ended))
    }

    @Test func aPushAfterRemovalIsDEV4s() async {
        var removed = Self.phone
        removed.removedAtMs = Self.start - 200
        only(PushServiceRequirement.removed, violations(await apns(Self.object(Self.callPayload)), removed))
    }

    @Test func aNormalNotificationWithoutTTLIsNOTIF2s() async {
        let n = Self.notification([
            "headings": ["en": "T"], "contents": ["en": "B"], "ttl": 86400,
            "data": [.init(PushServiceNotification.markerKey): "r1-n1"],
        ])
        var members: [(key: String, value: JSONValue)] = [("aps", ["alert": ["title": "T", "body": "B"]])]
        members.append((PushServiceNotification.markerKey, "r1-n1"))
        f.clock.set(ms: Self.start)
        let request = f.apnsRequest(
            token: Self.alertToken,
            headers: [
                ("apns-push-type", "alert"), ("apns-topic", f.mocks.credentials.bundleID), ("apns-expiration", nil),
            ], body: Array(JSONValue.object(members).serialized().utf8))
        _ = await f.mocks.apns(.production).handle(request)
        let c = f.mocks.log.captures().last!
        only(PushServiceRequirement.ttl, violations(c, Self.phone, n))
    }

    /// FCM's ttl is a duration: firebase-admin writes the seconds left at send as "86399.999064000s", and a
    /// service may round its clock either way; a ttl far from the notification's is still NOTIF-2.
    @Test func theFCMTTLIsJudgedByValueNotSpelling() async {
        let marker: (String, JSONValue?) = (PushServiceNotification.markerKey, "r1-n1")
        let n = Self.notification([
            "headings": ["en": "T"], "contents": ["en": "B"], "ttl": 86400,
            "data": [.init(PushServiceNotification.markerKey): "r1-n1"],
        ])
        func sent(ttl: JSONValue) async -> Capture {
            await fcm(
                data: Self.object([marker]),
                android: ["priority": "high", "ttl": ttl, "notification": ["title": "T", "body": "B"]])
        }
        for ok in ["86400s", "86399.999064000s", "86400.000000000s", "86399s"] {
            let v = violations(await sent(ttl: .string(ok)), Self.pixel, n)
            #expect(v.isEmpty, "\(ok): \(v)")
        }
        for bad in ["3600s", "86403s", "86400", "ttl"] {
            only(PushServiceRequirement.ttl, violations(await sent(ttl: .string(bad)), Self.pixel, n))
        }
    }

    /// Apple's aps.alert may be the body text alone, and FCM v1 shows android.notification as well as
    /// message.notification: the seed fixes neither layout.
    @Test func anAlertStringAndAnAndroidNotificationShowTheNotification() async {
        let marker: (String, JSONValue?) = (PushServiceNotification.markerKey, "r1-n1")
        let n = Self.notification([
            "contents": ["en": "B"], "data": [.init(PushServiceNotification.markerKey): "r1-n1"],
        ])
        func alert(_ text: String) async -> Capture {
            f.clock.set(ms: Self.start)
            let request = f.apnsRequest(
                token: Self.alertToken,
                headers: [("apns-push-type", "alert"), ("apns-topic", f.mocks.credentials.bundleID)],
                body: Array(Self.object([("aps", ["alert": .string(text)]), marker]).serialized().utf8))
            _ = await f.mocks.apns(.production).handle(request)
            return f.mocks.log.captures().last!
        }
        let asString = await alert("B")
        #expect(violations(asString, Self.phone, n).isEmpty, "\(violations(asString, Self.phone, n))")
        only(PushServiceRequirement.alert, violations(await alert("other"), Self.phone, n))

        let onAndroid = await fcm(
            data: Self.object([marker]), android: ["priority": "high", "notification": ["body": "B"]])
        #expect(violations(onAndroid, Self.pixel, n).isEmpty, "\(violations(onAndroid, Self.pixel, n))")
        let nowhere = await fcm(data: Self.object([marker]))
        only(PushServiceRequirement.alert, violations(nowhere, Self.pixel, n))
    }

    /// "Thiết bị iOS chưa đăng ký voipToken sẽ bị tính lỗi": counted as an error, failed or errored alike.
    @Test func aDeviceWithoutAVoIPTokenMayCountAsFailedOrErrored() {
        let want = PushServiceCounts(successful: 1, failed: 0, errored: 0, failedOrErrored: 1)
        #expect(want.admits(successful: 1, failed: 1, errored: 0))
        #expect(want.admits(successful: 1, failed: 0, errored: 1))
        #expect(!want.admits(successful: 2, failed: 0, errored: 0))
        #expect(!want.admits(successful: 1, failed: 1, errored: 1))
        let strict = PushServiceCounts(successful: 0, failed: 1, errored: 1)
        #expect(strict.admits(successful: 0, failed: 1, errored: 1))
        #expect(!strict.admits(successful: 0, failed: 2, errored: 0))
    }

    /// The seed names queued_at and completed_at, not their format: unix seconds or ISO 8601.
    @Test func countTimesAreUnixSecondsOrISO8601() {
        #expect(GetNotificationStep.seconds(.int(1_790_000_000)) == 1_790_000_000)
        #expect(GetNotificationStep.seconds("2026-12-06T07:57:37Z") == 1_796_543_857)
        #expect(GetNotificationStep.seconds("2026-12-06T07:57:37.250Z") == 1_796_543_857.25)
        #expect(GetNotificationStep.seconds("yesterday") == nil)
        #expect(
            GetNotificationStep.fieldProblems(
                [
                    "id": "n1", "successful": 1, "failed": 0, "errored": 0, "remaining": 0,
                    "queued_at": "2026-12-06T07:57:37Z", "completed_at": "2026-12-06T07:57:38Z",
                ], id: "n1"
            ).isEmpty)
        #expect(
            GetNotificationStep.fieldProblems(
                [
                    "id": "n1", "successful": 1, "failed": 0, "errored": 0, "remaining": 0,
                    "queued_at": "soon", "completed_at": .null,
                ], id: "n1"
            ).count == 1)
    }

    // MARK: PUSHSVC-CALL-8

    /// A copy of `incoming` whose answer came back `ago` ms before the pushes (at `start`).
    static func incoming(answeredAgo ago: Int64) -> PushServiceNotification {
        var n = incoming
        n.answeredAtMs = start - ago
        return n
    }

    /// Late is more than the margin after the request's answer + its timeout (45 s), on either platform.
    @Test func anIncomingCallPushAfterItsRingIsCALL8s() async {
        let ring = 45_000 + PushServiceInvariants.lateCallMarginMs
        let late = Self.incoming(answeredAgo: ring + 1)
        only(PushServiceRequirement.noLateCall, violations(await apns(Self.object(Self.callPayload)), Self.phone, late))
        only(
            PushServiceRequirement.noLateCall,
            violations(await fcm(data: Self.object(Self.callPayload)), Self.pixel, late))
        let inTime = Self.incoming(answeredAgo: ring)
        let voip = await apns(Self.object(Self.callPayload))
        #expect(violations(voip, Self.phone, inTime).isEmpty, "\(violations(voip, Self.phone, inTime))")
    }

    /// The push is tied to its request by call_id, never by time: a request for another call whose ring ended long
    /// ago does not make it late, and its own request's ring decides.
    @Test func aCallPushIsJudgedAgainstItsOwnCallsRing() async {
        var other = Self.notification(
            [
                "call": [
                    "action": "incoming", "id": "0a1b2c3d-0000-4000-8000-000000000000", "caller_name": "A",
                    "timeout": 1,
                ]
            ], marker: "r1-n2")
        other.answeredAtMs = Self.start - 600_000
        let own = Self.incoming(answeredAgo: 1_000)
        let voip = await apns(Self.object(Self.callPayload))
        let found = PushServiceInvariants.check(
            [PushServiceJudgedPush(capture: voip, device: Self.phone)], notifications: [other, own],
            bundleId: f.mocks.credentials.bundleID, voipTopic: f.mocks.credentials.voipTopic)
        #expect(found.isEmpty, "\(found)")
    }

    /// A generated id is tied by ringcheck's marker; without a timeout in the request, the push's own `timeout` is
    /// the ring's length.
    @Test func aGeneratedIdOrAMissingTimeoutIsStillJudged() async {
        let generated = "9e8d7c6b-5a49-4382-a716-151413121110"
        var n = Self.notification([
            "call": ["action": "incoming", "id": "", "caller_name": "A", "handle": "0901", "avatar": "https://a"],
            "data": ["room": "abc", .init(PushServiceNotification.markerKey): "r1-n1"],
        ])
        n.answeredAtMs = Self.start - 45_000 - PushServiceInvariants.lateCallMarginMs - 1
        let push = await apns(Self.object(Self.callPayload, [("call_id", .string(generated))]))
        only(PushServiceRequirement.noLateCall, violations(push, Self.phone, n))
    }

    /// A call device no push was accepted for may be counted failed or errored once the ring has ended (the service
    /// dropped it unsent, or stopped retrying), and before that only as the mocks saw it.
    @Test func aCallDeviceWithoutAnAcceptedPushMayCountEitherWayAfterItsRing() {
        let n = Self.incoming
        let ringEnd = n.sentAtMs + 45_000
        let before = PushServiceCounts.expected(for: n, devices: [Self.phone], captures: [], readAtMs: ringEnd - 1)
        #expect(!before.admits(successful: 0, failed: 1, errored: 0))
        let after = PushServiceCounts.expected(for: n, devices: [Self.phone], captures: [], readAtMs: ringEnd)
        #expect(
            after.admits(successful: 0, failed: 1, errored: 0) && after.admits(successful: 0, failed: 0, errored: 1))
        #expect(!after.admits(successful: 1, failed: 0, errored: 0))
    }
}
