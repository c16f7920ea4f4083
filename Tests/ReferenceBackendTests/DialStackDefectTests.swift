import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// Each defect switch of the wake-up reference backend, over real sockets: it changes exactly its own
/// rule (what `DialStackWebhookTests` shows the conforming backend doing) and leaves the rest as it was.
@Suite(.serialized) struct DialStackDefectTests {
    typealias Devices = DialStackWebhookTests

    func start(_ defects: Set<DialStackDefect>, slowPushDelayMs: Int64 = 20_000, slowAnswerDelayMs: Int64 = 16_000)
        async throws -> DialStackReferenceStack
    {
        let stack = try await DialStackReferenceStack.start(
            defects: defects, slowPushDelayMs: slowPushDelayMs, slowAnswerDelayMs: slowAnswerDelayMs)
        try await Devices.registerDevices(stack)
        return stack
    }

    /// Posts a correctly signed wake-up and returns user-b's three pushes.
    func wake(_ stack: DialStackReferenceStack, type: String = "call.mobile_push_wakeup") async throws -> [Capture] {
        let callId = Devices.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(type: type, callId: callId).bytes()) == 200)
        let pushes = await stack.waitForPushes(callId: callId, count: 3)
        #expect(pushes.count == 3)
        return pushes
    }

    @Test func everyDefectHasANameAndASummary() {
        #expect(DialStackDefect.allCases.count == 13)
        #expect(Set(DialStackDefect.allCases.map(\.name)).count == DialStackDefect.allCases.count)
        #expect(DialStackDefect.allCases.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
        #expect(DialStackDefect.parse(["slow-push", "slow-pushes"]) == ([.slowPush], ["slow-pushes"]))
    }

    @Test func verifyParsedBody() async throws {
        let stack = try await start([.verifyParsedBody])
        // A body DialStack formatted differently from what re-serializing gives is refused…
        let callId = Devices.callId()
        let spaced = Array(DialStackReferenceStack.event(callId: callId).serialized(pretty: true).utf8)
        #expect(try await stack.postSigned(spaced) == 401)
        // …while a compact one (re-serialized to the same bytes) still verifies and wakes.
        _ = try await wake(stack)
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: callId).isEmpty)
        await stack.stop()
    }

    @Test func noSignatureCheck() async throws {
        let stack = try await start([.noSignatureCheck])
        for signatures in [[], ["t=1,v1=00"]] {
            let callId = Devices.callId()
            #expect(
                try await stack.postWebhook(
                    DialStackReferenceStack.event(callId: callId).bytes(), signatures: signatures) == 200)
            #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        }
        await stack.stop()
    }

    @Test func noTimestampCheck() async throws {
        let stack = try await start([.noTimestampCheck])
        let stale = Devices.callId()
        let body = DialStackReferenceStack.event(callId: stale).bytes()
        #expect(try await stack.postWebhook(body, signatures: [stack.signature(body, offsetSeconds: -3_600)]) == 200)
        #expect(await stack.waitForPushes(callId: stale, count: 3).count == 3)
        // The signature itself is still checked.
        let forged = Devices.callId()
        let forgedBody = DialStackReferenceStack.event(callId: forged).bytes()
        let header = WebhookSignature.header(secret: "whsec_other", timestamp: 1, body: forgedBody)
        #expect(try await stack.postWebhook(forgedBody, signatures: [header]) == 401)
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: forged).isEmpty)
        await stack.stop()
    }

    @Test func pushOnRinging() async throws {
        let stack = try await start([.pushOnRinging])
        for type in ["call.ringing", "call.incoming"] {
            let pushes = try await wake(stack, type: type)
            #expect(pushes.first { $0.mock == .fcm }?.fcm?.data["type"] == "call.mobile_push_wakeup")
        }
        // Other event types still wake nobody.
        let ended = Devices.callId()
        #expect(
            try await stack.postSigned(DialStackReferenceStack.event(type: "call.ended", callId: ended).bytes()) == 200)
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: ended).isEmpty)
        await stack.stop()
    }

    @Test func apnsExpiration0() async throws {
        let stack = try await start([.apnsExpiration0])
        let pushes = try await wake(stack)
        for push in pushes where push.mock == .apns {
            #expect(push.headers["apns-expiration"] == "0")
            #expect(push.headers["apns-priority"] == "10" && push.headers["apns-push-type"] == "voip")
            #expect(push.json?["call_id"] != nil)
        }
        #expect(pushes.first { $0.mock == .fcm }?.json?.value(atPath: "message.android.ttl") == "30s")
        await stack.stop()
    }

    @Test func fcmNotificationBlock() async throws {
        let stack = try await start([.fcmNotificationBlock])
        let pushes = try await wake(stack)
        let fcm = try #require(pushes.first { $0.mock == .fcm })
        #expect(fcm.fcm?.hasNotification == true)
        #expect(fcm.json?.value(atPath: "message.notification.title") == "John Smith")
        #expect(fcm.fcm?.priority == "HIGH" && fcm.fcm?.ttlSeconds == 30)
        #expect(fcm.fcm?.data["type"] == "call.mobile_push_wakeup" && fcm.fcm?.data.count == 5)
        await stack.stop()
    }

    @Test func fcmTTLLong() async throws {
        let stack = try await start([.fcmTTLLong])
        let pushes = try await wake(stack)
        let fcm = try #require(pushes.first { $0.mock == .fcm })
        #expect(fcm.json?.value(atPath: "message.android.ttl") == "3600s")
        #expect(fcm.fcm?.priority == "HIGH" && fcm.fcm?.hasNotification == false)
        #expect(pushes.filter { $0.mock == .apns }.allSatisfy { $0.headers["apns-expiration"] != "0" })
        await stack.stop()
    }

    @Test func missingCallID() async throws {
        let stack = try await start([.missingCallID])
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: Devices.callId()).bytes()) == 200)
        let pushes = await stack.mocks.log.waitFor(count: 3, matching: { $0.mock != .oauth }, timeout: .seconds(15))
        try #require(pushes.count == 3)
        for push in pushes where push.mock == .apns {
            #expect(push.json?.objectValue?.map(\.key) == ["from_number", "from_name", "to_number"])
        }
        let fcm = try #require(pushes.first { $0.mock == .fcm }?.fcm)
        #expect(fcm.data["call_id"] == nil && fcm.data["from_number"] == "+14155551234")
        await stack.stop()
    }

    @Test func firstDeviceOnly() async throws {
        let stack = try await start([.firstDeviceOnly])
        let callId = Devices.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes()) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 1).count == 1)
        await stack.server.waitUntilPushesSettle()
        #expect(stack.pushes(callId: callId).map(\.deviceToken) == [Devices.sandboxPhone])
        await stack.stop()
    }

    @Test func wrongUser() async throws {
        let stack = try await start([.wrongUser])
        let callId = Devices.callId()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes()) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 5).count == 5)
        let tokens = Set(stack.pushes(callId: callId).compactMap(\.deviceToken))
        #expect(tokens.isSuperset(of: [Devices.sandboxPhone, Devices.productionPhone, Devices.tablet]))
        #expect(tokens.isSuperset(of: [Devices.otherPhone, Devices.otherTablet]))
        await stack.stop()
    }

    @Test func ringTwiceOnRedelivery() async throws {
        let stack = try await start([.ringTwiceOnRedelivery])
        let callId = Devices.callId()
        let body = DialStackReferenceStack.event(id: "evt_twice_\(callId)", callId: callId).bytes()
        #expect(try await stack.postSigned(body) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        #expect(try await stack.postSigned(body) == 200)
        #expect(await stack.waitForPushes(callId: callId, count: 6).count == 6)
        await stack.stop()
    }

    @Test func slowPush() async throws {
        // The defect's 20 s shortened to 2 s: every push arrives at least that long after the webhook
        // (a lower bound, which a busy machine only makes larger).
        let stack = try await start([.slowPush], slowPushDelayMs: 2_000)
        let sentMs = SystemClock.milliseconds()
        let pushes = try await wake(stack)
        #expect(pushes.allSatisfy { $0.arrivalMs - sentMs >= 2_000 })
        #expect(pushes.allSatisfy { $0.outcome == .accepted })
        await stack.stop()
    }

    @Test func slowAnswer() async throws {
        // The defect's 16 s shortened to 2 s: the pushes go out at least that long after the webhook, and the webhook
        // is answered only once they are in (both lower bounds, which a busy machine only makes larger).
        let stack = try await start([.slowAnswer], slowAnswerDelayMs: 2_000)
        let callId = Devices.callId()
        let sentMs = SystemClock.milliseconds()
        #expect(try await stack.postSigned(DialStackReferenceStack.event(callId: callId).bytes()) == 200)
        let answeredMs = SystemClock.milliseconds()
        let pushes = stack.pushes(callId: callId)
        #expect(pushes.count == 3)
        #expect(pushes.allSatisfy { $0.arrivalMs - sentMs >= 2_000 && $0.arrivalMs <= answeredMs })
        await stack.stop()
    }
}
