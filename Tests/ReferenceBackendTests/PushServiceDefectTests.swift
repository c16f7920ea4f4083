import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// Each defect switch of the reference push service, over real sockets: it breaks exactly its own
/// rule (what the other `PushService*Tests` show the conforming service doing).
@Suite(.serialized) struct PushServiceDefectTests {
    static let phone = ReferenceAPIClient.apnsToken("ps-defect-phone")
    static let voip = ReferenceAPIClient.apnsToken("ps-defect-voip")
    static let tablet = "fcm-ps-defect-tablet:APA91b" + String(repeating: "d", count: 40)
    static let order = PushServiceNotificationTests.order

    /// A service with `defects` and user-1's iPhone (alert + VoIP token) and Android tablet.
    func start(_ defects: Set<PushServiceDefect>, voip: Bool = true, sandbox: Bool? = nil) async throws
        -> PushServiceStack
    {
        let stack = try await PushServiceStack.start(defects: defects)
        try await stack.registerDevice(
            "user-1", platform: "ios", token: Self.phone, voipToken: voip ? Self.voip : nil, sandbox: sandbox)
        try await stack.registerDevice("user-1", platform: "android", token: Self.tablet)
        return stack
    }

    /// Sends `body`, waits for the queue, returns the notification's counts.
    func send(_ stack: PushServiceStack, _ body: JSONValue) async throws -> APIReply {
        let reply = try await stack.notify(body)
        #expect(reply.status == 200)
        return try await stack.settledNotification(try #require(reply["id"]?.stringValue))
    }

    func push(_ stack: PushServiceStack, _ mock: MockProviderID) throws -> Capture {
        try #require(stack.pushes.last { $0.mock == mock })
    }

    @Test func everyDefectHasANameAndASummary() {
        #expect(PushServiceDefect.allCases.count == 23)
        #expect(Set(PushServiceDefect.allCases.map(\.name)).count == PushServiceDefect.allCases.count)
        #expect(PushServiceDefect.allCases.allSatisfy { !$0.summary.isEmpty && !$0.summary.contains("\n") })
        #expect(PushServiceDefect.parse(["ignore-ttl", "ignore-ttls"]) == ([.ignoreTTL], ["ignore-ttls"]))
    }

    @Test func alertForCalls() async throws {
        let stack = try await start([.alertForCalls])
        _ = try await send(stack, PushServiceStack.call(["user-1"]))
        let apns = try push(stack, .apns)
        #expect(apns.deviceToken == Self.phone && apns.headers["apns-push-type"] == "alert")
        #expect(apns.headers["apns-topic"] == stack.bundleID && apns.callMembers["type"] == "incoming_call")
        #expect(try push(stack, .fcm).fcm?.hasNotification == false)
        await stack.stop()
    }

    @Test func numericPayloadValues() async throws {
        let stack = try await start([.numericPayloadValues])
        let counts = try await send(stack, PushServiceStack.call(["user-1"], isVideo: true))
        let apns = try push(stack, .apns).callMembers
        #expect(apns["is_video"] == true && apns["timeout"] == 45 && apns["call_id"]?.stringValue != nil)
        // FCM refuses data that is not all strings: the Android push errors.
        #expect(try push(stack, .fcm).outcome != .accepted)
        #expect(counts["successful"] == 1 && counts["errored"] == 1)
        await stack.stop()
    }

    @Test func endedNewID() async throws {
        let stack = try await start([.endedNewID])
        let callId = UUID().uuidString.lowercased()
        _ = try await send(stack, PushServiceStack.call(["user-1"], id: callId))
        _ = try await send(stack, PushServiceStack.call(["user-1"], action: "ended", id: callId))
        let pushes = stack.pushes
        #expect(pushes.prefix(2).allSatisfy { $0.callMembers["call_id"]?.stringValue == callId })
        let ended = pushes.dropFirst(2)
        #expect(ended.count == 2 && ended.allSatisfy { $0.callMembers["type"] == "call_ended" })
        #expect(ended.allSatisfy { ($0.callMembers["call_id"]?.stringValue ?? callId) != callId })
        await stack.stop()
    }

    @Test func noVoIPTokenCountedOK() async throws {
        let stack = try await start([.noVoIPTokenCountedOK], voip: false)
        let counts = try await send(stack, PushServiceStack.call(["user-1"]))
        #expect(counts["successful"] == 2 && counts["failed"] == 0)
        #expect(stack.pushes.map(\.mock) == [.fcm])
        await stack.stop()
    }

    @Test func dropDeviceOnDeadVoIP() async throws {
        let stack = try await start([.dropDeviceOnDeadVoIP])
        stack.mocks.providers.registry.unregister(token: Self.voip, atMs: SystemClock.milliseconds() - 1_000)
        #expect(try await send(stack, PushServiceStack.call(["user-1"]))["failed"] == 1)
        #expect(try !stack.server.store.allDevices(appId: stack.appId).contains { $0.platform == .ios })
        // The normal notification no longer reaches the iPhone.
        #expect(try await send(stack, Self.order)["successful"] == 1)
        #expect(!stack.pushes.contains { $0.deviceToken == Self.phone })
        await stack.stop()
    }

    @Test func keepDeadVoIPToken() async throws {
        let stack = try await start([.keepDeadVoIPToken])
        stack.mocks.providers.registry.unregister(token: Self.voip, atMs: SystemClock.milliseconds() - 1_000)
        #expect(try await send(stack, PushServiceStack.call(["user-1"]))["failed"] == 1)
        #expect(try await send(stack, PushServiceStack.call(["user-1"]))["failed"] == 1)
        // Pushed to the dead token twice.
        #expect(stack.pushes.filter { $0.deviceToken == Self.voip }.count == 2)
        await stack.stop()
    }

    @Test func acceptAnyKey() async throws {
        let stack = try await start([.acceptAnyKey])
        #expect(try await stack.notify(Self.order, authorization: "Key psk_wrong").status == 200)
        let none = try await stack.send(
            "POST", "/notifications", body: Self.order.setting("app_id", to: .string(stack.appId)).bytes())
        #expect(none.status == 200)
        // A wrong App ID is still refused.
        #expect(try await stack.notify(Self.order.setting("app_id", to: .string(UUID().uuidString))).status == 403)
        await stack.stop()
    }

    @Test func keySchemeOnly() async throws {
        let stack = try await start([.keySchemeOnly])
        #expect(try await stack.notify(Self.order, authorization: "Key \(stack.apiKey)").status == 200)
        #expect(try await stack.notify(Self.order, authorization: "Basic \(stack.apiKey)").status == 403)
        #expect(try await stack.notify(Self.order, authorization: "Bearer \(stack.apiKey)").status == 403)
        await stack.stop()
    }

    @Test func countsIgnoreFailures() async throws {
        let stack = try await start([.countsIgnoreFailures], voip: false)
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .fcm, deviceToken: Self.tablet, respond: FaultResponse(status: 400, errorCode: "INVALID_ARGUMENT")
            ))
        let counts = try await send(stack, PushServiceStack.call(["user-1"]))
        #expect(counts["successful"] == 2 && counts["failed"] == 0 && counts["errored"] == 0)
        #expect(stack.pushes.allSatisfy { $0.outcome != .accepted })
        await stack.stop()
    }

    @Test func notificationBlockOnAndroid() async throws {
        let stack = try await start([.notificationBlockOnAndroid])
        _ = try await send(stack, PushServiceStack.call(["user-1"]))
        let fcm = try push(stack, .fcm)
        #expect(fcm.fcm?.hasNotification == true && fcm.fcm?.priority?.uppercased() == "HIGH")
        #expect(fcm.callMembers["type"] == "incoming_call")
        #expect(try push(stack, .apns).headers["apns-push-type"] == "voip")
        await stack.stop()
    }

    @Test func normalPriorityCalls() async throws {
        let stack = try await start([.normalPriorityCalls])
        _ = try await send(stack, PushServiceStack.call(["user-1"]))
        let fcm = try push(stack, .fcm)
        #expect(fcm.fcm?.priority?.uppercased() == "NORMAL" && fcm.fcm?.hasNotification == false)
        await stack.stop()
    }

    @Test func normalPriorityEnded() async throws {
        let stack = try await start([.normalPriorityEnded])
        let callId = UUID().uuidString.lowercased()
        _ = try await send(stack, PushServiceStack.call(["user-1"], id: callId))
        #expect(try push(stack, .fcm).fcm?.priority?.uppercased() == "HIGH")
        _ = try await send(stack, PushServiceStack.call(["user-1"], action: "ended", id: callId))
        let ended = try push(stack, .fcm)
        #expect(ended.callMembers["type"] == "call_ended" && ended.fcm?.priority?.uppercased() == "NORMAL")
        await stack.stop()
    }

    @Test func firstExternalIdOnly() async throws {
        let stack = try await start([.firstExternalIdOnly])
        let other = "fcm-ps-defect-other:APA91b" + String(repeating: "e", count: 40)
        try await stack.registerDevice("user-2", platform: "android", token: other)
        // user-2 is listed second: its tablet gets nothing, while both of user-1's devices get the call.
        let counts = try await send(stack, PushServiceStack.call(["user-1", "user-2"]))
        let fcmTokens = stack.pushes.compactMap { $0.json?.value(atPath: "message.token")?.stringValue }
        #expect(!fcmTokens.contains(other) && fcmTokens.contains(Self.tablet))
        #expect(counts["successful"]?.intValue == 2)
        await stack.stop()
    }

    @Test func voipForEnded() async throws {
        let stack = try await start([.voipForEnded])
        let callId = UUID().uuidString.lowercased()
        _ = try await send(stack, PushServiceStack.call(["user-1"], id: callId))
        _ = try await send(
            stack, PushServiceStack.call(["user-1"], action: "ended", id: callId, headings: "Cuộc gọi nhỡ"))
        let ended = try push(stack, .apns)
        #expect(ended.callMembers["type"] == "call_ended")
        #expect(ended.deviceToken == Self.voip && ended.headers["apns-push-type"] == "voip")
        await stack.stop()
    }

    @Test func noGeneratedID() async throws {
        let stack = try await start([.noGeneratedID])
        _ = try await send(stack, PushServiceStack.call(["user-1"], id: ""))
        #expect(stack.pushes.count == 2 && stack.pushes.allSatisfy { $0.callMembers["call_id"] == "" })
        await stack.stop()
    }

    @Test func ignoreTTL() async throws {
        let stack = try await start([.ignoreTTL])
        _ = try await send(stack, Self.order)
        let apns = try push(stack, .apns)
        #expect(apns.headers["apns-expiration"] == nil && apns.headers["apns-collapse-id"] == "order-42")
        let fcm = try push(stack, .fcm)
        #expect(fcm.json?.value(atPath: "message.android.ttl") == nil)
        #expect(fcm.json?.value(atPath: "message.android.collapse_key") == "order-42")
        await stack.stop()
    }

    @Test func ignoreCollapseID() async throws {
        let stack = try await start([.ignoreCollapseID])
        _ = try await send(stack, Self.order)
        #expect(try push(stack, .apns).headers["apns-collapse-id"] == nil)
        #expect(try push(stack, .apns).headers["apns-expiration"] != nil)
        #expect(try push(stack, .fcm).json?.value(atPath: "message.android.collapse_key") == nil)
        await stack.stop()
    }

    @Test func ignoreBadge() async throws {
        let stack = try await start([.ignoreBadge])
        _ = try await send(stack, Self.order)
        let apns = try push(stack, .apns)
        #expect(apns.json?.value(atPath: "aps.badge") == nil && apns.json?.value(atPath: "aps.alert.title") != nil)
        await stack.stop()
    }

    @Test func ignoreChannel() async throws {
        let stack = try await start([.ignoreChannel])
        _ = try await send(stack, Self.order)
        let fcm = try push(stack, .fcm)
        #expect(fcm.json?.value(atPath: "message.android.notification.channel_id") == nil)
        #expect(fcm.json?.value(atPath: "message.android.ttl") == "86400s")
        await stack.stop()
    }

    @Test func sandboxIgnored() async throws {
        let stack = try await start([.sandboxIgnored], sandbox: true)
        _ = try await send(stack, PushServiceStack.call(["user-1"]))
        #expect(try push(stack, .apns).environment == .production)
        await stack.stop()
    }

    @Test func acceptBadRegistration() async throws {
        let stack = try await start([.acceptBadRegistration])
        let unknownPlatform = try await stack.registerDevice("user-2", platform: "windows", token: "t")
        #expect(unknownPlatform.status == 200 && unknownPlatform["id"]?.stringValue != nil)
        let noToken = try await stack.send(
            "POST", "/api/v1/apps/\(stack.appId)/devices",
            body: (["external_id": 42, "platform": "ios"] as JSONValue).bytes())
        #expect(noToken.status == 200)
        // Only the member checks are off: a body that is no JSON object is still refused.
        let notJSON = try await stack.send("POST", "/api/v1/apps/\(stack.appId)/devices", body: Array("[".utf8))
        #expect(notJSON.status == 400)
        await stack.stop()
    }

    /// The provider asks for a retry 5 s later, after the 1 s ring: the defect sends it (the conforming service gives
    /// up, `PushServiceCallTimeoutTests`), and the late VoIP push is counted successful.
    @Test func ignoreCallTimeout() async throws {
        let stack = try await start([.ignoreCallTimeout])
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: Self.voip, times: 1, respond: FaultResponse(status: 503), retryAfter: 5)
        )
        let counts = try await send(stack, PushServiceStack.call(["user-1"], id: UUID().uuidString, timeout: 1))
        #expect(counts["successful"] == 2 && counts["errored"] == 0)
        let voip = stack.pushes.filter { $0.deviceToken == Self.voip }
        #expect(voip.map(\.outcome.isAccepted) == [false, true])
        if voip.count == 2 { #expect(voip[1].arrivalMs - voip[0].arrivalMs >= 4_000) }
        await stack.stop()
    }
}
