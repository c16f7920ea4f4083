import Foundation
import HTTP
import JSON
import PushMocks
import Signing
import Testing

@testable import Conformance
@testable import DialStack

/// `DialStackLoadHistory` over hand-built webhooks and pushes: each rule holds on a clean history and names the
/// webhook and the device when broken.
@Suite struct DialStackLoadHistoryTests {
    static let phone = VirtualCallee(
        name: "b's phone", kind: .apnsVoip, environment: .sandbox, installationId: "b-phone",
        token: String(repeating: "ab", count: 32))
    static let tablet = VirtualCallee(name: "b's tablet", kind: .fcm, installationId: "b-tablet", token: "fcm-b")

    static func unit(
        script: DialStackLoadScript = .wakeUp, type: String = DialStackEvent.wakeUpType,
        signature: WebhookSignatureVariant = .valid, deliveries: Int = 1, status: Int = 200
    ) -> DialStackLoadUnit {
        var u = DialStackLoadUnit(
            script: script, eventId: "evt_1", callId: "call_1", type: type, user: "user-b", signature: signature,
            devices: [phone, tablet])
        u.deliveries = (0..<deliveries).map { n in
            DialStackDelivery(
                eventId: "evt_1", type: type, callId: "call_1", user: "user-b", data: [:], sentAtMs: 1_000 + Int64(n),
                signedValidly: n > 0 || signature.isValid, status: n == 0 ? status : 200)
        }
        return u
    }

    /// An accepted APNs push for `call_1` that reached `device` of `user` at `arrivalMs`.
    static func push(_ seq: Int, _ device: String, user: String = "user-b", arrivalMs: Int64 = 1_050)
        -> DialStackJudgedPush
    {
        let body: JSONValue = ["call_id": "call_1"]
        var c = Capture(
            request: HTTPRequest(method: "POST", target: "/3/device/x", body: Array(body.serialized().utf8)),
            mock: .apns, arrivalMs: arrivalMs)
        c.sequence = seq
        c.outcome = .accepted
        c.json = body
        return DialStackJudgedPush(capture: c, device: device, user: user)
    }

    static func rules(_ u: DialStackLoadUnit, _ pushes: [DialStackJudgedPush]) -> [HistoryRule] {
        DialStackLoadHistory.check(u, pushes: pushes, whole: true, levels: [:]).violations.compactMap(\.rule)
    }

    @Test func aWakeUpThatPushesEachOwnDeviceOnceIsClean() {
        #expect(Self.rules(Self.unit(), [Self.push(1, Self.phone.name), Self.push(2, Self.tablet.name)]) == [])
    }

    @Test func aDeviceLeftAsleepOrWokenPastTheBudgetIsCharged() {
        let asleep = DialStackLoadHistory.check(
            Self.unit(), pushes: [Self.push(1, Self.phone.name)], whole: true, levels: [:]
        ).violations
        #expect(asleep.map(\.rule) == [.wakeEveryDevice])
        #expect(asleep.first?.message.hasPrefix("webhook evt_1 (call.mobile_push_wakeup for user-b") == true)
        #expect(asleep.first?.message.contains("b's tablet") == true)
        let late = Self.rules(
            Self.unit(), [Self.push(1, Self.phone.name), Self.push(2, Self.tablet.name, arrivalMs: 40_000)])
        #expect(late == [.wakeEveryDevice])
    }

    @Test func aSecondPushIsWakeOnceOrARingOnRedelivery() {
        let twice = [Self.push(1, Self.phone.name), Self.push(2, Self.tablet.name), Self.push(3, Self.phone.name)]
        #expect(Self.rules(Self.unit(), twice) == [.wakeOnce])
        #expect(Self.rules(Self.unit(script: .redelivery, deliveries: 2), twice) == [.noRingOnRedelivery])
    }

    @Test func anotherUsersDeviceIsCharged() {
        let found = DialStackLoadHistory.check(
            Self.unit(),
            pushes: [
                Self.push(1, Self.phone.name), Self.push(2, Self.tablet.name),
                Self.push(3, "c's phone", user: "user-c"),
            ],
            whole: true, levels: ["DIALSTACK-WAKE-2": .must]
        ).violations
        #expect(found.map(\.rule) == [.noOtherUser])
        #expect(found.first?.requirement == "DIALSTACK-WAKE-2")
        #expect(found.first?.message.contains("c's phone, a device of user-c") == true)
    }

    @Test func otherEventsAndBadSignaturesMustPushNothingAndBeAnsweredAsTheySay() {
        #expect(Self.rules(Self.unit(script: .otherType, type: "call.ringing"), []) == [])
        #expect(
            Self.rules(Self.unit(script: .otherType, type: "call.ringing"), [Self.push(1, Self.phone.name)])
                == [.noPushForOtherEvent])
        let bad = Self.unit(script: .badSignature, signature: .wrongSecret, status: 401)
        #expect(Self.rules(bad, []) == [])
        let taken = Self.unit(script: .badSignature, signature: .wrongSecret, status: 200)
        let found = DialStackLoadHistory.check(taken, pushes: [Self.push(1, Self.phone.name)], whole: true, levels: [:])
            .violations
        #expect(found.map(\.rule) == [.webhookAnswer, .noPushForBadSignature])
        #expect(found.allSatisfy { $0.requirement == "DIALSTACK-SIG-2" })
    }

    @Test func aPushAfterTheWebhookWasJudgedCountsAgainstTheEarlierOnes() {
        let first = DialStackLoadHistory.check(
            Self.unit(), pushes: [Self.push(1, Self.phone.name), Self.push(2, Self.tablet.name)], whole: true,
            levels: [:])
        let late = DialStackLoadHistory.check(
            Self.unit(), pushes: [Self.push(3, Self.tablet.name)], prior: first.rung, whole: false, levels: [:])
        #expect(late.violations.map(\.rule) == [.wakeOnce])
    }
}
