import Foundation
import HTTP
import JSON
import PushMocks
import Testing

@testable import Conformance
@testable import PushService

/// `PushServiceLoadHistory` over hand-built notifications and pushes: each rule holds on a clean history and names
/// the request when broken.
@Suite struct PushServiceLoadHistoryTests {
    static let phone = PushServiceDevice(
        name: "u1 iphone", user: "u1", platform: .ios, token: String(repeating: "aa", count: 32),
        voipToken: String(repeating: "bb", count: 32), sandbox: true)
    static let pixel = PushServiceDevice(
        name: "u1 pixel", user: "u1", platform: .android, token: "fcm-1", voipToken: nil, sandbox: false)

    static func record(_ marker: String, call: String? = nil, incoming: String? = nil, sentAtMs: Int64 = 1_000)
        -> PushServiceLoadRecord
    {
        var body: JSONValue = ["contents": ["en": "hi"]]
        if let call {
            body = ["call": ["action": .string(call), "id": "c-1", "timeout": 3]]
        }
        let n = PushServiceNotification(
            marker: marker, body: body, sentAtMs: sentAtMs, status: 200, id: "n-\(marker)",
            devices: [phone.name, pixel.name], save: nil, answeredAtMs: sentAtMs)
        return PushServiceLoadRecord(notification: n, devices: [phone, pixel], incomingMarker: incoming)
    }

    /// An accepted push carrying `marker` to `token` (APNs unless the token is the pixel's), arriving at `arrivalMs`.
    static func push(_ seq: Int, _ marker: String, token: String, type: String? = nil, arrivalMs: Int64 = 1_100)
        -> Capture
    {
        var fields: [(key: String, value: JSONValue)] = [(PushServiceNotification.markerKey, .string(marker))]
        if let type { fields += [("type", .string(type)), ("call_id", "c-1"), ("timeout", "3")] }
        let fcm = token == pixel.token
        let body: JSONValue =
            fcm
            ? ["message": ["token": .string(token), "data": .object(fields)]]
            : .object([("aps", [:])] + fields)
        var c = Capture(
            request: HTTPRequest(
                method: "POST", target: fcm ? "/v1/projects/p/messages:send" : "/3/device/" + token,
                body: Array(body.serialized().utf8)),
            mock: fcm ? .fcm : .apns, arrivalMs: arrivalMs)
        c.sequence = seq
        c.outcome = .accepted
        c.json = body
        if fcm { c.fcmTarget = FCMTarget(kind: .token, value: token) } else { c.deviceToken = token }
        return c
    }

    static func rules(_ records: [PushServiceLoadRecord], _ captures: [Capture]) -> [HistoryRule] {
        PushServiceLoadHistory.check(records, captures: captures, faulted: [], levels: [:]).compactMap(\.rule)
    }

    @Test func aNotificationToEachDeviceOnceIsClean() {
        let r = Self.record("m1")
        #expect(
            Self.rules([r], [Self.push(1, "m1", token: Self.phone.token!), Self.push(2, "m1", token: "fcm-1")]) == [])
    }

    @Test func aDeviceLeftOutOrPushedTwiceIsCharged() {
        let r = Self.record("m1")
        let missing = PushServiceLoadHistory.check(
            [r], captures: [Self.push(1, "m1", token: Self.phone.token!)], faulted: [], levels: [:])
        #expect(missing.map(\.rule) == [.reachEveryDevice])
        #expect(missing.first?.message.contains("notification m1") == true)
        #expect(missing.first?.message.contains("u1 pixel got no push") == true)
        #expect(
            PushServiceLoadHistory.check(
                [r], captures: [Self.push(1, "m1", token: Self.phone.token!)], faulted: [Self.pixel.name], levels: [:]
            ).isEmpty, "a device the mocks always refuse is excused")
        let twice = [
            Self.push(1, "m1", token: Self.phone.token!), Self.push(2, "m1", token: "fcm-1"),
            Self.push(3, "m1", token: "fcm-1"),
        ]
        #expect(Self.rules([r], twice) == [.oncePerDevice])
    }

    @Test func anEndedMustReachEveryDeviceItsIncomingReached() {
        let incoming = Self.record("i1", call: "incoming")
        let ended = Self.record("e1", call: "ended", incoming: "i1")
        let rang = [
            Self.push(1, "i1", token: Self.phone.voipToken!, type: "incoming_call"),
            Self.push(2, "i1", token: "fcm-1", type: "incoming_call"),
        ]
        #expect(
            Self.rules([incoming, ended], rang + [Self.push(3, "e1", token: Self.phone.token!, type: "call_ended")])
                == [.reachEveryDevice])
        #expect(
            Self.rules(
                [incoming, ended],
                rang + [
                    Self.push(3, "e1", token: Self.phone.token!, type: "call_ended"),
                    Self.push(4, "e1", token: "fcm-1", type: "call_ended"),
                ]) == [])
    }

    @Test func anIncomingCallPushLongAfterItsRingIsALateCall() {
        let incoming = Self.record("i1", call: "incoming")
        // The ring (3 s) ended at 4,000 ms; the margin is 5 s.
        let late = [Self.push(1, "i1", token: Self.phone.voipToken!, type: "incoming_call", arrivalMs: 20_000)]
        #expect(Self.rules([incoming], late) == [.noLateCall])
        let inTime = [Self.push(1, "i1", token: Self.phone.voipToken!, type: "incoming_call", arrivalMs: 1_500)]
        #expect(Self.rules([incoming], inTime) == [])
    }

    @Test func settledCountsMustAgreeWithTheMocks() {
        var r = Self.record("m1")
        r.counts = (successful: 2, failed: 0, errored: 0, readAtMs: 2_000)
        let both = [Self.push(1, "m1", token: Self.phone.token!), Self.push(2, "m1", token: "fcm-1")]
        #expect(Self.rules([r], both) == [])
        r.counts = (successful: 1, failed: 1, errored: 0, readAtMs: 2_000)
        let found = PushServiceLoadHistory.check([r], captures: both, faulted: [], levels: [:])
        #expect(found.map(\.rule) == [.countsAgree])
        #expect(found.first?.requirement == "PUSHSVC-COUNT-2")
        r.counts = nil
        r.unsettled = "not settled"
        #expect(Self.rules([r], both) == [.countsAgree])
    }
}
