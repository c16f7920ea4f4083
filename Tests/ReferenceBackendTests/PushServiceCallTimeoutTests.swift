import Foundation
import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@testable import ReferenceBackend

/// The reference push service never sends an incoming-call push after the call's `timeout` (its ring): the queue's
/// claim drops one still queued when the ring ended — re-claimed after a dead worker's lease, or reached late behind
/// a backlog — and counts it failed; a provider's retry that would land after the ring is not scheduled.
@Suite(.serialized) struct PushServiceCallTimeoutTests {
    static let phone = ReferenceAPIClient.apnsToken("ps-timeout-phone")
    static let voip = ReferenceAPIClient.apnsToken("ps-timeout-voip")
    static let tablet = "fcm-ps-timeout-tablet:APA91b" + String(repeating: "r", count: 40)

    /// A store holding one 2 s call to an iPhone and one normal notification to an Android tablet, queued at 0 ms.
    static func queuedStore() throws -> (PushServiceStore, PushServiceConfiguration) {
        let store = try PushServiceStore(.inMemory)
        let configuration = PushServiceConfiguration.generated(bundleID: "com.example.app")
        let app = configuration.appId
        let builder = ServicePushBuilder(configuration: configuration, fcmProjectID: "p")
        _ = try store.register(
            try DeviceRegistration(
                json: ["external_id": "user-1", "platform": "ios", "token": .string(phone), "voipToken": .string(voip)]
            ),
            appId: app, nowMs: 0)
        _ = try store.register(
            try DeviceRegistration(json: ["external_id": "user-1", "platform": "android", "token": .string(tablet)]),
            appId: app, nowMs: 0)
        let devices = try store.allDevices(appId: app)
        let iPhone = try #require(devices.first { $0.platform == .ios })
        let android = try #require(devices.first { $0.platform == .android })
        let callId = UUID().uuidString.lowercased()
        let call = try ServiceNotification(
            json: PushServiceStack.call(["user-1"], id: callId, timeout: 2).setting("app_id", to: .string(app)))
        try store.queue(
            notificationId: "call", appId: app, callId: callId, callAction: "incoming", request: [],
            deliveries: [builder.plan(call, callId: callId, to: iPhone, nowMs: 0)], nowMs: 0)
        let order = try ServiceNotification(
            json: PushServiceNotificationTests.order.setting("app_id", to: .string(app)))
        try store.queue(
            notificationId: "order", appId: app, callId: nil, callAction: nil, request: [],
            deliveries: [builder.plan(order, callId: "", to: android, nowMs: 0)], nowMs: 0)
        return (store, configuration)
    }

    /// The `kill -9` case: a worker claimed the call's push and died; when its 30 s lease runs out the 2 s ring is
    /// long over, so the push is dropped and counted failed, while the normal notification is sent again.
    @Test func aCallPushWhoseLeaseOutlivedItsRingIsDroppedAndCountedFailed() throws {
        let (store, configuration) = try Self.queuedStore()
        let first = try store.claimDue(nowMs: 0, leaseMs: 30_000, limit: 10)
        #expect(first.due.count == 2 && first.dropped.isEmpty)

        let again = try store.claimDue(nowMs: 30_001, leaseMs: 30_000, limit: 10)
        #expect(again.due.map(\.notificationId) == ["order"])
        #expect(again.dropped.map(\.notificationId) == ["call"] && again.dropped.map(\.channel) == ["voip"])
        let call = try #require(try store.notification(appId: configuration.appId, id: "call"))
        #expect(call.counts == DeliveryCounts(successful: 0, failed: 1, errored: 0, remaining: 0))
        #expect(call.completedAtMs == 30_001)
        #expect(try store.notification(appId: configuration.appId, id: "order")?.counts.remaining == 1)
    }

    /// A push due before the ring's end is sent; the `ignore-call-timeout` defect sends one past it too.
    @Test func aCallPushIsSentWithinItsRingAndOnlyTheDefectSendsItAfter() throws {
        let (store, _) = try Self.queuedStore()
        #expect(try store.claimDue(nowMs: 1_999, leaseMs: 1, limit: 10).due.count == 2)
        let late = try store.claimDue(nowMs: 2_000, leaseMs: 1, limit: 10, keepingRingEnded: true)
        #expect(late.due.map(\.channel) == [.voip, .fcm] && late.dropped.isEmpty)
    }

    /// The queue-lag case over real sockets: one send at a time, the provider holds a normal notification 8 s, and a
    /// 1 s call queued behind it reaches the front after its ring: no VoIP push, the call counted failed.
    @Test func aCallPushReachedBehindABacklogAfterItsRingIsNeverSent() async throws {
        let stack = try await PushServiceStack.start(retryPolicy: PushRetryPolicy(batchSize: 1, maxAttempts: 3))
        try await stack.registerDevice("user-1", platform: "android", token: Self.tablet)
        try await stack.registerDevice("user-2", platform: "ios", token: Self.phone, voipToken: Self.voip)
        _ = try stack.mocks.faults.install(FaultPlan(mock: .fcm, deviceToken: Self.tablet, times: 1, latencyMs: 8_000))
        #expect(try await stack.notify(PushServiceNotificationTests.order).status == 200)
        let reply = try await stack.notify(PushServiceStack.call(["user-2"], id: UUID().uuidString, timeout: 1))
        let id = try #require(reply["id"]?.stringValue)
        let counts = try await stack.settledNotification(id)
        #expect(counts["failed"] == 1 && counts["successful"] == 0 && counts["remaining"] == 0)
        #expect(stack.pushes.map(\.mock) == [.fcm], "\(stack.pushes.map(\.mock))")
        await stack.stop()
    }

    /// The provider asks for a retry 5 s later, after the 1 s ring: the service gives up at once (errored) rather
    /// than ring late. `PushServiceDefectTests.ignoreCallTimeout` shows the retry the defect sends.
    @Test func aRetryThatWouldLandAfterTheRingIsNotScheduled() async throws {
        let stack = try await PushServiceStack.start()
        try await stack.registerDevice("user-2", platform: "ios", token: Self.phone, voipToken: Self.voip)
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: Self.voip, times: 1, respond: FaultResponse(status: 503), retryAfter: 5)
        )
        let reply = try await stack.notify(PushServiceStack.call(["user-2"], id: UUID().uuidString, timeout: 1))
        let counts = try await stack.settledNotification(try #require(reply["id"]?.stringValue))
        #expect(counts["errored"] == 1 && counts["successful"] == 0 && counts["remaining"] == 0)
        #expect(stack.pushes.map(\.outcome.isAccepted) == [false])
        await stack.stop()
    }
}
