import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// Calls through the reference push service, over real sockets against the mocks: a VoIP push to
/// the iOS device's `voipToken` and a data-only FCM message to Android, with the seed's all-string
/// members; a generated ID; `ended` with the same ID to the same devices, never as VoIP on iOS; an
/// iOS device without a `voipToken` counted failed; a dead VoIP token deleted while the device keeps
/// getting normal notifications.
@Suite(.serialized) struct PushServiceCallTests {
    static let phone = ReferenceAPIClient.apnsToken("ps-call-phone")
    static let voip = ReferenceAPIClient.apnsToken("ps-call-voip")
    static let sandboxPhone = ReferenceAPIClient.apnsToken("ps-call-sandbox-phone")
    static let sandboxVoip = ReferenceAPIClient.apnsToken("ps-call-sandbox-voip")
    static let tablet = "fcm-ps-call-tablet:APA91b" + String(repeating: "t", count: 40)
    static let seedKeys: Set<String> = [
        "type", "call_id", "caller_name", "caller_handle", "caller_avatar", "is_video", "timeout", "room",
    ]

    /// user-2 with a production iPhone, a sandbox iPhone and an Android tablet.
    static func registerDevices(_ stack: PushServiceStack) async throws {
        #expect(try await stack.registerDevice("user-2", platform: "ios", token: phone, voipToken: voip).status == 200)
        #expect(
            try await stack.registerDevice(
                "user-2", platform: "ios", token: sandboxPhone, voipToken: sandboxVoip, sandbox: true
            ).status == 200)
        #expect(try await stack.registerDevice("user-2", platform: "android", token: tablet).status == 200)
    }

    @Test func aCallReachesIOSAsVoIPAndAndroidAsAHighPriorityDataMessage() async throws {
        let stack = try await PushServiceStack.start()
        try await Self.registerDevices(stack)
        let callId = UUID().uuidString.lowercased()
        let sentS = SystemClock.milliseconds() / 1000
        let reply = try await stack.notify(PushServiceStack.call(["user-2"], id: callId, isVideo: true))
        #expect(reply.status == 200)
        let id = try #require(reply["id"]?.stringValue)
        #expect(id != "" && id != callId)
        let counts = try await stack.settledNotification(id)
        #expect(
            counts["successful"] == 3 && counts["failed"] == 0 && counts["errored"] == 0 && counts["remaining"] == 0)
        let queued = try #require(counts["queued_at"]?.int64Value)
        let completed = try #require(counts["completed_at"]?.int64Value)
        #expect(queued >= sentS - 5 && completed >= queued)

        let pushes = stack.pushes
        #expect(pushes.count == 3 && pushes.allSatisfy { $0.outcome == .accepted })
        let apns = pushes.filter { $0.mock == .apns }
        #expect(Set(apns.compactMap(\.deviceToken)) == [Self.voip, Self.sandboxVoip])
        #expect(apns.first { $0.deviceToken == Self.sandboxVoip }?.environment == .sandbox)
        #expect(apns.first { $0.deviceToken == Self.voip }?.environment == .production)
        for push in apns {
            #expect(push.headers["apns-push-type"] == "voip")
            #expect(push.headers["apns-topic"] == stack.bundleID + ".voip")
            #expect(push.headers["apns-priority"] == "10")
            let expiration = try #require(push.headers["apns-expiration"].flatMap { Int64($0) })
            #expect(expiration >= sentS + 40 && expiration <= sentS + 45 + 30)
            #expect(push.json?["aps"] == .object([]))
        }
        let fcm = try #require(pushes.first { $0.mock == .fcm })
        #expect(fcm.deviceToken == Self.tablet)
        #expect(fcm.fcm?.priority?.uppercased() == "HIGH" && fcm.fcm?.hasNotification == false)
        #expect(fcm.json?.value(atPath: "message.android.ttl") == "45s")
        for push in pushes {
            let members = push.callMembers
            #expect(Set(members.keys) == Self.seedKeys)
            #expect(members.values.allSatisfy { $0.stringValue != nil })
            #expect(members["type"] == "incoming_call" && members["call_id"]?.stringValue == callId)
            #expect(members["caller_name"] == "Nguyễn Văn A" && members["caller_handle"] == "0901234567")
            #expect(members["caller_avatar"] == "https://example.com/a.jpg")
            #expect(members["is_video"] == "true" && members["timeout"] == "45" && members["room"] == "abc")
        }
        await stack.stop()
    }

    @Test func androidCarriesTitleAndBodyWhenGivenAndDataValuesBecomeStrings() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-2", platform: "android", token: Self.tablet)
        let body = PushServiceStack.call(
            ["user-2"], data: ["room": "abc", "n": 7, "ok": true], headings: "Cuộc gọi đến", contents: "Nguyễn Văn A")
        _ = try await stack.notify(body)
        let fcm = try #require(await stack.waitForPushes(1).first)
        let data = fcm.callMembers
        #expect(data["title"] == "Cuộc gọi đến" && data["body"] == "Nguyễn Văn A")
        #expect(data["n"] == "7" && data["ok"] == "true" && data["is_video"] == "false")
        #expect(fcm.fcm?.hasNotification == false)
        await stack.stop()
    }

    @Test func anEmptyIdGetsAGeneratedUUIDThatBothPlatformsCarry() async throws {
        let stack = try await PushServiceStack.start()
        try await Self.registerDevices(stack)
        _ = try await stack.notify(PushServiceStack.call(["user-2"], id: ""))
        let pushes = await stack.waitForPushes(3)
        let ids = Set(pushes.compactMap { $0.callMembers["call_id"]?.stringValue })
        #expect(ids.count == 1)
        let generated = try #require(ids.first)
        #expect(UUID(uuidString: generated) != nil)
        await stack.stop()
    }

    @Test func endedWithTheSameIdReachesTheSameDevicesAndNeverAsVoIPOnIOS() async throws {
        let stack = try await PushServiceStack.start()
        try await Self.registerDevices(stack)
        let callId = UUID().uuidString.lowercased()
        _ = try await stack.notify(PushServiceStack.call(["user-2"], id: callId))
        let incoming = await stack.waitForPushes(3)
        #expect(incoming.count == 3)
        // A device registered after the call does not take part; the call's devices all hear the end.
        try await stack.registerDevice("user-3", platform: "android", token: "fcm-late")
        let missed = try await stack.notify(
            PushServiceStack.call(
                ["user-2"], action: "ended", id: callId, headings: "Cuộc gọi nhỡ", contents: "Nguyễn Văn A"))
        #expect(missed.status == 200)
        let all = await stack.waitForPushes(6)
        let ended = Array(all.dropFirst(3))
        #expect(ended.count == 3)
        #expect(
            ended.allSatisfy {
                $0.callMembers["type"] == "call_ended" && $0.callMembers["call_id"]?.stringValue == callId
            })
        let endedApns = ended.filter { $0.mock == .apns }
        #expect(Set(endedApns.compactMap(\.deviceToken)) == [Self.phone, Self.sandboxPhone])
        for push in endedApns {
            #expect(push.headers["apns-push-type"] == "alert" && push.headers["apns-topic"] == stack.bundleID)
            #expect(push.json?.value(atPath: "aps.alert.title") == "Cuộc gọi nhỡ")
        }
        #expect(ended.first { $0.mock == .fcm }?.deviceToken == Self.tablet)
        // Without headings/contents: a background push on iOS.
        _ = try await stack.notify(PushServiceStack.call(["user-2"], action: "ended", id: callId))
        let quiet = Array(await stack.waitForPushes(9).dropFirst(6))
        for push in quiet where push.mock == .apns {
            #expect(push.headers["apns-push-type"] == "background" && push.headers["apns-priority"] == "5")
            #expect(push.json?.value(atPath: "aps.content-available") == 1)
        }
        await stack.server.waitUntilDeliveriesSettle()
        #expect(stack.pushes.allSatisfy { $0.outcome == .accepted })
        await stack.stop()
    }

    @Test func anIOSDeviceWithoutAVoIPTokenIsCountedFailed() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-2", platform: "ios", token: Self.phone)
        try await stack.registerDevice("user-2", platform: "android", token: Self.tablet)
        let id = try #require(try await stack.notify(PushServiceStack.call(["user-2"]))["id"]?.stringValue)
        let counts = try await stack.settledNotification(id)
        #expect(
            counts["successful"] == 1 && counts["failed"] == 1 && counts["errored"] == 0 && counts["remaining"] == 0)
        #expect(stack.pushes.map(\.mock) == [.fcm])
        await stack.stop()
    }

    @Test func aDeadVoIPTokenIsDeletedAndTheDeviceStillGetsNormalNotifications() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-2", platform: "ios", token: Self.phone, voipToken: Self.voip)
        stack.mocks.providers.registry.unregister(token: Self.voip, atMs: SystemClock.milliseconds() - 1_000)
        let call = try #require(try await stack.notify(PushServiceStack.call(["user-2"]))["id"]?.stringValue)
        let counts = try await stack.settledNotification(call)
        #expect(counts["failed"] == 1 && counts["successful"] == 0)
        let devices = try stack.server.store.allDevices(appId: stack.appId)
        #expect(devices.count == 1 && devices[0].voipToken == nil && devices[0].token == Self.phone)
        // The next call finds no VoIP token (failed, nothing sent); a normal notification still arrives.
        let again = try #require(try await stack.notify(PushServiceStack.call(["user-2"]))["id"]?.stringValue)
        #expect(try await stack.settledNotification(again)["failed"] == 1)
        let normal = try #require(
            try await stack.notify(["include_aliases": ["external_id": ["user-2"]], "contents": ["en": "Đơn #42"]])[
                "id"]?
                .stringValue)
        #expect(try await stack.settledNotification(normal)["successful"] == 1)
        #expect(stack.pushes.map(\.deviceToken) == [Self.voip, Self.phone])
        #expect(stack.pushes.last?.headers["apns-push-type"] == "alert")
        await stack.stop()
    }
}
