import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@testable import ReferenceBackend

/// Normal notifications through the reference push service and the delivery counts: headings and
/// contents as an APNs alert and an FCM notification, ttl, collapse id, badge and channel mapped to
/// the providers' fields, and `successful`/`failed`/`errored` matching what the mocks accepted and
/// refused under 410, 429 and 5xx faults.
@Suite(.serialized) struct PushServiceNotificationTests {
    static let phone = ReferenceAPIClient.apnsToken("ps-notify-phone")
    static let voip = ReferenceAPIClient.apnsToken("ps-notify-voip")
    static let tablet = "fcm-ps-notify-tablet:APA91b" + String(repeating: "n", count: 40)
    static let order: JSONValue = [
        "target_channel": "push", "include_aliases": ["external_id": ["user-1"]],
        "headings": ["en": "Đơn hàng đã giao"], "contents": ["en": "Đơn #42 đã giao thành công"],
        "data": ["screen": "order", "id": "42"], "big_picture": "https://example.com/img.jpg",
        "ios_badgeType": "SetTo", "ios_badgeCount": 1, "android_channel_id": "orders", "ttl": 86400,
        "collapse_id": "order-42",
    ]

    static func registerDevices(_ stack: PushServiceStack) async throws {
        try await stack.registerDevice("user-1", platform: "ios", token: phone, voipToken: voip)
        try await stack.registerDevice("user-1", platform: "android", token: tablet)
    }

    @Test func theSeedsNotificationMapsTTLCollapseBadgeAndChannel() async throws {
        let stack = try await PushServiceStack.start()
        try await Self.registerDevices(stack)
        let sentS = SystemClock.milliseconds() / 1000
        let id = try #require(try await stack.notify(Self.order)["id"]?.stringValue)
        let counts = try await stack.settledNotification(id)
        #expect(counts["successful"] == 2 && counts["remaining"] == 0)
        #expect(counts["headings"] == ["en": "Đơn hàng đã giao"] && counts["contents"]?["en"] != nil)
        let apns = try #require(stack.pushes.first { $0.mock == .apns })
        #expect(apns.deviceToken == Self.phone)
        #expect(apns.headers["apns-push-type"] == "alert" && apns.headers["apns-topic"] == stack.bundleID)
        let expiration = try #require(apns.headers["apns-expiration"].flatMap { Int64($0) })
        #expect(expiration >= sentS + 86_400 - 5 && expiration <= sentS + 86_400 + 30)
        #expect(apns.headers["apns-collapse-id"] == "order-42")
        #expect(apns.json?.value(atPath: "aps.badge") == 1)
        #expect(apns.json?.value(atPath: "aps.alert.title") == "Đơn hàng đã giao")
        #expect(apns.json?.value(atPath: "aps.alert.body") == "Đơn #42 đã giao thành công")
        #expect(apns.json?["screen"] == "order")
        let fcm = try #require(stack.pushes.first { $0.mock == .fcm })
        #expect(fcm.deviceToken == Self.tablet)
        #expect(fcm.json?.value(atPath: "message.android.ttl") == "86400s")
        #expect(fcm.json?.value(atPath: "message.android.collapse_key") == "order-42")
        #expect(fcm.json?.value(atPath: "message.android.notification.channel_id") == "orders")
        #expect(fcm.json?.value(atPath: "message.notification.title") == "Đơn hàng đã giao")
        #expect(fcm.json?.value(atPath: "message.notification.image") == "https://example.com/img.jpg")
        #expect(fcm.fcm?.data == ["screen": "order", "id": "42"])
        #expect(stack.pushes.allSatisfy { $0.outcome == .accepted })
        await stack.stop()
    }

    @Test func countsFollowWhatTheMocksAcceptedAndRefused() async throws {
        let stack = try await PushServiceStack.start()
        let others = (1...3).map { ReferenceAPIClient.apnsToken("ps-notify-other-\($0)") }
        try await Self.registerDevices(stack)
        for token in others { try await stack.registerDevice("user-1", platform: "ios", token: token) }
        // phone: dead (410); tablet: 429 then accepted; others[0]: 503 every time (errored after the
        // retries); others[1]: 500 once then accepted; others[2]: accepted.
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: Self.phone, respond: FaultResponse(status: 410, reason: "Unregistered"))
        )
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .fcm, deviceToken: Self.tablet, times: 1, respond: FaultResponse(status: 429), retryAfter: 0))
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: others[0], respond: FaultResponse(status: 503)))
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: others[1], times: 1, respond: FaultResponse(status: 500)))
        let id = try #require(try await stack.notify(Self.order)["id"]?.stringValue)
        let counts = try await stack.settledNotification(id)
        #expect(counts["successful"] == 3)
        #expect(counts["failed"] == 1)
        #expect(counts["errored"] == 1)
        #expect(counts["remaining"] == 0 && counts["completed_at"]?.int64Value != nil)
        let pushes = stack.pushes
        #expect(pushes.filter { $0.deviceToken == Self.phone }.count == 1)
        #expect(pushes.filter { $0.deviceToken == Self.tablet }.map(\.outcome.isAccepted) == [false, true])
        #expect(pushes.filter { $0.deviceToken == others[0] }.count == 3)  // the policy's three attempts
        #expect(pushes.filter { $0.deviceToken == others[1] }.map(\.outcome.isAccepted) == [false, true])
        // The dead alert token took its device with it.
        #expect(try !stack.server.store.allDevices(appId: stack.appId).contains { $0.token == Self.phone })
        await stack.stop()
    }

    @Test func remainingCountsPendingDeliveriesAndCompletedAtWaitsForThem() async throws {
        let stack = try await PushServiceStack.start(
            retryPolicy: PushRetryPolicy(maxAttempts: 3, initialBackoffMs: 1_500, maxBackoffMs: 1_500))
        try await Self.registerDevices(stack)
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .fcm, deviceToken: Self.tablet, times: 1, respond: FaultResponse(status: 503)))
        let id = try #require(try await stack.notify(Self.order)["id"]?.stringValue)
        // The FCM push waits 1.5 s for its retry: seen as remaining until then.
        _ = await stack.waitForPushes(2)
        let during = try await stack.notification(id)
        if during["remaining"] == 1 { #expect(during["completed_at"] == .null) }
        let after = try await stack.settledNotification(id)
        #expect(after["remaining"] == 0 && after["successful"] == 2 && after["completed_at"] != .null)
        await stack.stop()
    }

    @Test func pendingDeliveriesSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("push.db").path
        let store = try PushServiceStore(.file(file))
        let bundle = "com.example.app"
        let configuration = PushServiceConfiguration.generated(bundleID: bundle)
        // A notification queued by a service that stopped before sending it.
        let registration = try DeviceRegistration(
            json: ["external_id": "user-1", "platform": "android", "token": .string(Self.tablet)])
        let deviceId = try store.register(registration, appId: configuration.appId, nowMs: 0)
        let device = try #require(try store.allDevices(appId: configuration.appId).first)
        let builder = ServicePushBuilder(configuration: configuration, fcmProjectID: "p")
        let notification = try ServiceNotification(json: Self.order.setting("app_id", to: .string(configuration.appId)))
        try store.queue(
            notificationId: "n1", appId: configuration.appId, callId: nil, callAction: nil, request: [],
            deliveries: [builder.plan(notification, callId: "", to: device, nowMs: 0)], nowMs: 0)
        #expect(deviceId == device.id)
        // A new store on the same file finds it due.
        let reopened = try PushServiceStore(.file(file))
        let due = try reopened.claimDue(nowMs: 1_000, leaseMs: 30_000, limit: 10).due
        #expect(due.count == 1 && due[0].notificationId == "n1" && due[0].request.destination == .fcm)
        #expect(due[0].request.json?.value(atPath: "message.token")?.stringValue == Self.tablet)
        #expect(try reopened.notification(appId: configuration.appId, id: "n1")?.counts.remaining == 1)
    }

    @Test func aServiceRestartedOnTheSameDatabaseSendsWhatWasStillQueued() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let providers = try PushProviderSettings(environment: mocks.settings.environmentDictionary)
        let options = PushServiceServer.Options(
            configuration: .generated(bundleID: mocks.providers.credentials.bundleID),
            database: .file(directory.appendingPathComponent("push.db").path),
            retryPolicy: PushRetryPolicy(maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 500))
        let first = try PushServiceServer(options: options, providers: providers)
        try first.start()
        let client = try HTTPClient()
        defer { client.shutdown() }
        let key = ["authorization": "Key \(options.configuration.apiKey)", "content-type": "application/json"]
        let device: JSONValue = ["external_id": "user-1", "platform": "android", "token": .string(Self.tablet)]
        _ = try await client.send(
            ClientRequest(
                method: "POST", url: first.baseURL + "/api/v1/apps/\(options.configuration.appId)/devices",
                body: device.bytes()))
        // The first answer asks for a retry in 2 s; the service stops before then.
        _ = try mocks.faults.install(
            FaultPlan(mock: .fcm, times: 1, respond: FaultResponse(status: 503), retryAfter: 2))
        let body = Self.order.setting("app_id", to: .string(options.configuration.appId))
        let sent = try await client.send(
            ClientRequest(
                method: "POST", url: first.baseURL + "/notifications",
                headers: HTTPHeaders(key.map { ($0.key, $0.value) }), body: body.bytes()))
        let id = try #require(APIReply(status: sent.status, body: sent.body)["id"]?.stringValue)
        #expect(await mocks.log.waitFor({ $0.mock == .fcm }, timeout: .seconds(15))?.outcome != .accepted)
        await first.stop()

        let second = try PushServiceServer(options: options, providers: providers)
        try second.start()
        await second.waitUntilDeliveriesSettle()
        let fcm = mocks.log.captures { $0.mock == .fcm }
        #expect(fcm.map(\.outcome.isAccepted) == [false, true])
        let reply = try await client.send(
            ClientRequest(
                method: "GET", url: second.baseURL + "/notifications/\(id)?app_id=\(options.configuration.appId)",
                headers: HTTPHeaders(key.map { ($0.key, $0.value) })))
        let counts = APIReply(status: reply.status, body: reply.body)
        #expect(counts["successful"] == 1 && counts["remaining"] == 0)
        await second.stop()
    }
}
