import JSON
import PushMocks
import TestSupport
import Testing

@testable import Conformance
@testable import DialStack

/// The DialStack invariants on genuine captures (requests fed to in-process mocks on a manual clock): a conforming
/// wake-up passes, and each rule, broken alone, is charged to its own requirement and no other.
@Suite struct DialStackInvariantTests {
    static let start: Int64 = 1_790_000_000_000
    static let callId = "call_01h2xcejqtf2nbrexx3vqjhp45"
    let f = MockFixture(startMs: start)

    /// The webhook the pushes answer: sent 100 ms before `start`.
    static func delivery(
        type: String = DialStackEvent.wakeUpType, user: String? = "b", data: [String: String]? = nil,
        eventId: String = "evt_1", valid: Bool = true, sentAtMs: Int64 = start - 100
    ) -> DialStackDelivery {
        DialStackDelivery(
            eventId: eventId, type: type, callId: callId, user: user,
            data: data ?? [
                "call_id": callId, "user_id": "user-b", "from_number": DialStackEvent.fromNumber,
                "from_name": DialStackEvent.fromName, "to_number": DialStackEvent.toNumber,
            ], sentAtMs: sentAtMs, signedValidly: valid, status: valid ? 200 : 401)
    }

    static var payload: [(String, JSONValue?)] {
        [
            ("call_id", .string(callId)), ("from_number", .string(DialStackEvent.fromNumber)),
            ("from_name", .string(DialStackEvent.fromName)), ("to_number", .string(DialStackEvent.toNumber)),
        ]
    }

    /// A VoIP wake-up at `start` expiring 30 s later; `headers` replace the conforming ones, `changes` the body's
    /// members (nil removes one).
    func apns(headers: [(String, String?)] = [], _ changes: [(String, JSONValue?)] = []) async -> Capture {
        f.clock.set(ms: Self.start)
        let body = Self.object(Self.payload, changes)
        let defaults: [(String, String?)] = [("apns-expiration", String(Self.start / 1000 + 30))]
        let request = f.apnsRequest(headers: defaults + headers, body: body.bytes())
        _ = await f.mocks.apns(.production).handle(request)
        return f.mocks.log.captures().last!
    }

    /// An FCM wake-up at `start`; `android` and `data` changes replace members (nil removes one), `message` adds.
    func fcm(
        android: [(String, JSONValue?)] = [], data: [(String, JSONValue?)] = [], message: [(String, JSONValue)] = []
    ) async -> Capture {
        let dataMembers = Self.object([("type", .string(DialStackEvent.wakeUpType))] + Self.payload, data)
        var members: [(key: String, value: JSONValue)] = [
            ("token", .string(MockFixture.fcmToken)),
            ("android", Self.object([("priority", "high"), ("ttl", "30s")], android)), ("data", dataMembers),
        ]
        members += message.map { (key: $0.0, value: $0.1) }
        f.clock.set(ms: Self.start)
        let token = await f.accessToken()
        f.clock.set(ms: Self.start)
        _ = await f.mocks.fcm.handle(
            f.fcmRequest(JSONValue.object([(key: "message", value: .object(members))]), accessToken: token))
        return f.mocks.log.captures(CaptureFilter(mock: .fcm)).last!
    }

    static func object(_ base: [(String, JSONValue?)], _ changes: [(String, JSONValue?)]) -> JSONValue {
        var members = base.compactMap { m in m.1.map { (key: m.0, value: $0) } }
        for (key, value) in changes {
            members.removeAll { $0.key == key }
            if let value { members.append((key, value)) }
        }
        return .object(members)
    }

    func violations(
        _ capture: Capture, device: String = "b-phone", user: String = "b",
        deliveries: [DialStackDelivery] = [delivery()]
    ) -> [Violation] {
        DialStackInvariants.check(
            [DialStackJudgedPush(capture: capture, device: device, user: user)], deliveries: deliveries,
            voipTopic: f.mocks.credentials.voipTopic)
    }

    func only(_ id: RequirementID, _ capture: Capture, sourceLocation: SourceLocation = #_sourceLocation)
        -> Violation?
    {
        let found = violations(capture)
        #expect(found.map(\.requirement) == [id], "\(found)", sourceLocation: sourceLocation)
        return found.first
    }

    // MARK: Conforming

    @Test func conformingPushesPass() async {
        let voip = await apns()
        let android = await fcm()
        #expect(voip.outcome == .accepted && android.outcome == .accepted)
        #expect(violations(voip).isEmpty, "\(violations(voip))")
        #expect(violations(android, device: "b-pixel").isEmpty, "\(violations(android))")
        // APNs acts on priority 10 when the header is absent.
        #expect(violations(await apns(headers: [("apns-priority", nil)])).isEmpty)
    }

    // MARK: Who is woken

    @Test func anotherUsersDeviceIsWAKE2() async throws {
        let v = try #require(violations(await apns(), device: "c-phone", user: "c").first)
        #expect(v.requirement == "DIALSTACK-WAKE-2")
        #expect(violations(await apns(), device: "c-phone", user: "c").count == 1)
    }

    @Test func aPushForRingingOrWithoutUserIsWAKE3() async {
        for d in [Self.delivery(type: "call.ringing"), Self.delivery(type: "call.incoming"), Self.delivery(user: nil)] {
            #expect(violations(await apns(), deliveries: [d]).map(\.requirement) == ["DIALSTACK-WAKE-3"])
        }
    }

    @Test func aSecondPushForARedeliveredEventIsDEDUP1() async {
        let first = await apns()
        let second = await apns()
        let deliveries = [Self.delivery(), Self.delivery(sentAtMs: Self.start - 50)]
        let found = DialStackInvariants.check(
            [first, second].map { DialStackJudgedPush(capture: $0, device: "b-phone", user: "b") },
            deliveries: deliveries, voipTopic: f.mocks.credentials.voipTopic)
        #expect(found.map(\.requirement) == ["DIALSTACK-DEDUP-1"])
        #expect(found.first?.sequence == second.sequence)
        // Without a redelivery, two pushes are not this rule's business.
        let once = DialStackInvariants.check(
            [first, second].map { DialStackJudgedPush(capture: $0, device: "b-phone", user: "b") },
            deliveries: [Self.delivery()], voipTopic: f.mocks.credentials.voipTopic)
        #expect(once.isEmpty)
    }

    // MARK: The VoIP push

    @Test func missingCallIdIsPUSH1() async {
        #expect(only("DIALSTACK-PUSH-1", await apns([("call_id", nil)]))?.actual == "absent")
        #expect(only("DIALSTACK-PUSH-1", await apns([("call_id", 42)]))?.actual == "42 (not a string)")
    }

    /// "The exact payload shape depends on the OS call library in your app ... whatever the shape, include the
    /// webhook's call_id": a call object nested in the payload carries it, and the caller fields beside it.
    @Test func aNestedCallObjectCarriesTheCallIdAndTheCallerFields() async {
        let nested = Self.object(Self.payload, [])
        let top: [(String, JSONValue?)] = Self.payload.map { ($0.0, nil) }
        let voip = await apns(top + [("aps", [:]), ("call", nested)])
        #expect(DialStackPush(voip)?.callId == Self.callId)
        #expect(violations(voip).isEmpty, "\(violations(voip))")
        let camel = Self.object([("callId", .string(Self.callId))], [])
        #expect(DialStackPush(await apns(top + [("meta", .array([camel]))]))?.callId == Self.callId)
        // Nested without the caller fields: the call ID is enough for PUSH-1, the fields are APNS-5's.
        let bare = await apns(top + [("call", camel)])
        #expect(violations(bare).map(\.requirement) == Array(repeating: "DIALSTACK-APNS-5", count: 3))
        // Nowhere at all: PUSH-1.
        #expect(violations(await apns(top + [("call", ["id": "x"])])).map(\.requirement).contains("DIALSTACK-PUSH-1"))
    }

    /// "Whatever the shape, include the webhook's call_id": the call library's own key (flutter_callkit_incoming's
    /// `{"id": …, "nameCaller": …, "handle": …}`) carries it, tied by its value; the seed's key names stay APNS-5's.
    @Test func theCallIdValueUnderAnyKeyIsPUSH1sAnotherCallsIsNot() async throws {
        let top: [(String, JSONValue?)] = Self.payload.map { ($0.0, nil) }
        let callKit: [(String, JSONValue?)] = [
            ("nameCaller", .string(DialStackEvent.fromName)), ("handle", .string(DialStackEvent.fromNumber)),
            ("type", 0),
        ]
        let pure = await apns(top + callKit + [("id", .string(Self.callId))])
        #expect(violations(pure).map(\.requirement) == Array(repeating: "DIALSTACK-APNS-5", count: 3))
        let deep = await apns(top + [("extra", .array([["ids": ["call": .string(Self.callId)]]]))])
        #expect(!violations(deep).map(\.requirement).contains("DIALSTACK-PUSH-1"))
        // Another call's ID, under the library's key or the seed's, and not this one: PUSH-1.
        let other = await apns(top + callKit + [("id", "call_other")])
        #expect(violations(other).map(\.requirement).contains("DIALSTACK-PUSH-1"))
        // Naming a call no webhook announced, it is unattributed (DialStackCallTieTests), not judged by order.
        #expect(violations(await apns([("call_id", "call_other")])).isEmpty)
        // A redelivery ringing the library-shaped push again is still seen.
        let again = DialStackInvariants.check(
            [pure, await apns(top + callKit + [("id", .string(Self.callId))])].map {
                DialStackJudgedPush(capture: $0, device: "b-phone", user: "b")
            }, deliveries: [Self.delivery(), Self.delivery(sentAtMs: Self.start - 50)],
            voipTopic: f.mocks.credentials.voipTopic)
        #expect(again.map(\.requirement).contains("DIALSTACK-DEDUP-1"))
    }

    @Test func pushTypeTopicAndPriority() async {
        #expect(only("DIALSTACK-APNS-1", await apns(headers: [("apns-push-type", nil)]))?.actual == "absent")
        #expect(
            only("DIALSTACK-APNS-2", await apns(headers: [("apns-topic", "com.example.other.voip")]))?.actual
                == "\"com.example.other.voip\"")
        #expect(only("DIALSTACK-APNS-3", await apns(headers: [("apns-priority", "5")]))?.actual == "\"5\"")
    }

    @Test func expirationIsJudgedFromTheArrival() async {
        let arrival = Self.start / 1000
        #expect(only("DIALSTACK-APNS-4", await apns(headers: [("apns-expiration", "0")])) != nil)
        #expect(only("DIALSTACK-APNS-4", await apns(headers: [("apns-expiration", nil)]))?.actual == "absent")
        #expect(only("DIALSTACK-APNS-4", await apns(headers: [("apns-expiration", String(arrival + 3600))])) != nil)
        #expect(only("DIALSTACK-APNS-4", await apns(headers: [("apns-expiration", String(arrival))])) != nil)
        // Within 30 s (+1 s for rounding up) of the arrival: a backend may build the push a little earlier.
        for ok in [arrival + 1, arrival + 29, arrival + 31] {
            #expect(violations(await apns(headers: [("apns-expiration", String(ok))])).isEmpty, "\(ok)")
        }
        #expect(only("DIALSTACK-APNS-4", await apns(headers: [("apns-expiration", String(arrival + 32))])) != nil)
    }

    @Test func anExpirationThatIsNoTimeIsAFindingNotATrap() async {
        // Int64.max seconds overflowed when turned into milliseconds.
        for hostile in ["9223372036854775807", "1099511627777", "1e30", "-1", String(repeating: "9", count: 400)] {
            #expect(
                only("DIALSTACK-APNS-4", await apns(headers: [("apns-expiration", hostile)])) != nil,
                "\(hostile.prefix(20))")
        }
    }

    @Test func callerFieldsAreAPNS5() async {
        let v = only("DIALSTACK-APNS-5", await apns([("from_name", "John Smith")]))
        #expect(v?.field == "body.from_name")
        #expect(only("DIALSTACK-APNS-5", await apns([("to_number", nil)]))?.field == "body.to_number")
        // A webhook without from_name: absent or "" in the payload.
        var data = Self.delivery().data
        data["from_name"] = nil
        #expect(violations(await apns([("from_name", nil)]), deliveries: [Self.delivery(data: data)]).isEmpty)
        #expect(violations(await apns([("from_name", "")]), deliveries: [Self.delivery(data: data)]).isEmpty)
    }

    // MARK: The FCM data message

    @Test func notificationBlockIsFCM1() async {
        let c = await fcm(message: [("notification", ["title": "Incoming call"])])
        #expect(violations(c, device: "b-pixel").map(\.requirement) == ["DIALSTACK-FCM-1"])
        let android = await fcm(android: [("notification", ["title": "Incoming call"])])
        #expect(violations(android, device: "b-pixel").map(\.requirement) == ["DIALSTACK-FCM-1"])
    }

    @Test func priorityAndTTL() async {
        #expect(violations(await fcm(android: [("priority", "normal")])).map(\.requirement) == ["DIALSTACK-FCM-2"])
        #expect(violations(await fcm(android: [("priority", nil)])).map(\.requirement) == ["DIALSTACK-FCM-2"])
        #expect(violations(await fcm(android: [("ttl", "3600s")])).map(\.requirement) == ["DIALSTACK-FCM-3"])
        #expect(violations(await fcm(android: [("ttl", "0s")])).map(\.requirement) == ["DIALSTACK-FCM-3"])
        #expect(violations(await fcm(android: [("ttl", nil)])).map(\.requirement) == ["DIALSTACK-FCM-3"])
        #expect(violations(await fcm(android: [("ttl", "29.5s")])).isEmpty)
    }

    @Test func nonStringDataIsFCM4EvenWhenFCMRefusesIt() async {
        let c = await fcm(data: [("from_number", 14_155_551_234)])
        #expect(c.outcome != .accepted)  // FCM refuses non-string data; the rule is judged all the same
        let found = violations(c, device: "b-pixel")
        #expect(found.map(\.requirement) == ["DIALSTACK-FCM-4", "DIALSTACK-FCM-5"])
        #expect(found.first?.actual == "from_number: 14155551234")
    }

    @Test func seedFieldsAreFCM5() async {
        #expect(violations(await fcm(data: [("type", nil)])).map(\.requirement) == ["DIALSTACK-FCM-5"])
        #expect(violations(await fcm(data: [("from_name", nil)])).map(\.requirement) == ["DIALSTACK-FCM-5"])
        // Without from_name in the webhook the seed's data carries "".
        var data = Self.delivery().data
        data["from_name"] = nil
        let empty = await fcm(data: [("from_name", "")])
        #expect(violations(empty, deliveries: [Self.delivery(data: data)]).isEmpty)
        let absent = await fcm(data: [("from_name", nil)])
        #expect(violations(absent, deliveries: [Self.delivery(data: data)]).map(\.requirement) == ["DIALSTACK-FCM-5"])
    }

    /// FCM v1's `android.data` overrides `message.data` (`FCMAppData`): the rules read what the app receives, and
    /// name where they read it.
    @Test func androidDataIsWhatTheAppReceives() async throws {
        let typed: [(String, JSONValue?)] = [("type", .string(DialStackEvent.wakeUpType))] + Self.payload
        let data = Self.object(typed, [])
        let noTopLevel: [(String, JSONValue?)] = [("type", nil)] + Self.payload.map { ($0.0, nil) }
        let moved = await fcm(android: [("data", data)], data: noTopLevel)
        #expect(moved.outcome == .accepted)
        #expect(violations(moved, device: "b-pixel").isEmpty, "\(violations(moved, device: "b-pixel"))")
        // Whole, not per key: a call_id only in message.data never reaches the app.
        let hidden = await fcm(android: [("data", Self.object([("type", .string(DialStackEvent.wakeUpType))], []))])
        let lost = try #require(violations(hidden, device: "b-pixel").first)
        #expect(lost.requirement == "DIALSTACK-PUSH-1" && lost.field == "body.message.android.data.call_id")
        let number = await fcm(
            android: [("data", Self.object(typed, [("from_number", 14_155_551_234)]))], data: noTopLevel)
        let found = violations(number, device: "b-pixel")
        #expect(found.map(\.requirement) == ["DIALSTACK-FCM-4", "DIALSTACK-FCM-5"])
        #expect(found.first?.field == "body.message.android.data")
    }

    // MARK: Latency

    @Test func latencyIsArrivalMinusSending() async {
        let voip = await apns()
        let slow = DialStackDelivery(
            eventId: "evt_2", type: DialStackEvent.wakeUpType, callId: Self.callId, user: "b", data: [:],
            sentAtMs: Self.start - 16_000, signedValidly: true, status: 200)
        let fast = DialStackLatency(
            [DialStackJudgedPush(capture: voip, device: "b-phone", user: "b")], deliveries: [Self.delivery()])
        #expect(fast.samples.map(\.milliseconds) == [100])
        #expect(fast.tooSlow.isEmpty)
        #expect(fast.summary == "wake-up latency over 1 push: p50 100 ms, max 100 ms (bound 15000 ms)")
        let late = DialStackLatency(
            [DialStackJudgedPush(capture: voip, device: "b-phone", user: "b")], deliveries: [slow])
        #expect(late.tooSlow.map(\.milliseconds) == [16_000])
        // A refused webhook is no start: the push answers no valid delivery.
        let refused = DialStackLatency(
            [DialStackJudgedPush(capture: voip, device: "b-phone", user: "b")],
            deliveries: [Self.delivery(valid: false)])
        #expect(refused.samples.isEmpty)
    }
}
