import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck serve-reference --db FILE` killed with SIGKILL and started again: no call, event or
/// pending push is lost, and the call still expires on time.
@Suite struct RestartTests {
    static let iphone = ReferenceAPIClient.apnsToken("restart-iphone")
    static let android = "fcm-restart-android:APA91b" + String(repeating: "r", count: 40)

    @Test func killNineLosesNoCallEventOrPendingPush() async throws {
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let dir = TemporaryDirectory(prefix: "ringcheck-restart")
        let db = dir.file("reference.db")
        let env = mocks.settings.environmentDictionary
        let args = ["--port", "0", "--db", db, "--ring-seconds", "30"]
        let bundle = mocks.providers.credentials.bundleID

        let first = try await ReferenceServerProcess.start(arguments: args, environment: env)
        let api1 = try ReferenceAPIClient(baseURL: first.baseURL)
        try await api1.registerAPNs(
            "user-b", installation: "b-phone", token: Self.iphone, environment: "sandbox", appId: bundle)
        try await api1.registerFCM("user-b", installation: "b-tablet", token: Self.android, appId: bundle)
        _ = try await api1.events("user-a", installation: "a-phone")
        // Both invitations are held up: APNs answers only after 30 s (the push is in flight when the
        // process dies, even if a busy machine holds this test back for many seconds); FCM answers 503
        // with Retry-After: 2 (the push waits in the outbox). The call rings for 30 s, so it still rings
        // after the restart.
        _ = try mocks.faults.install(FaultPlan(mock: .apns, deviceToken: Self.iphone, times: 1, latencyMs: 30_000))
        _ = try mocks.faults.install(
            FaultPlan(
                mock: .fcm, deviceToken: Self.android, times: 1,
                respond: FaultResponse(status: 503, errorCode: "UNAVAILABLE"), retryAfter: 2))
        let callId = UUID().uuidString.lowercased()
        let created = try await api1.create(callId)
        #expect(created.status == 200)
        let expiresAtMs = try #require(created["expiresAtMs"]?.int64Value)
        let refused = await mocks.log.waitFor({ $0.deviceToken == Self.android }, timeout: .seconds(20))
        #expect(refused?.response.status == 503)
        try await Task.sleep(for: .milliseconds(300))
        await first.killHard()
        api1.client.shutdown()

        let second = try await ReferenceServerProcess.start(arguments: args, environment: env)
        let api2 = try ReferenceAPIClient(baseURL: second.baseURL)
        let snapshot = try await api2.get(callId, as: "user-a")
        #expect(snapshot.status == 200)
        #expect(snapshot["state"] == "ringing")
        // The in-flight APNs push is sent again at once; the FCM retry goes when Retry-After allows.
        let iphone = await mocks.log.waitFor(
            { $0.deviceToken == Self.iphone && $0.outcome == .accepted }, timeout: .seconds(20))
        #expect(iphone?.callx?["callId"]?.stringValue == callId)
        #expect(iphone.map { $0.arrivalMs < expiresAtMs } == true)
        let android = await mocks.log.waitFor(
            { $0.deviceToken == Self.android && $0.outcome == .accepted }, timeout: .seconds(20))
        #expect(android?.callx?["callId"]?.stringValue == callId)
        #expect(android?.callx?["eventId"] == refused?.callx?["eventId"])

        // No traffic until after the deadline: the restarted backend still ends the call on its own timer
        // (a backend that ended calls only when asked would leave it ringing in the store). The margin
        // allows for a busy machine running the timer late.
        let wait = expiresAtMs + 5_000 - SystemClock.milliseconds()
        if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
        await second.killHard()
        api2.client.shutdown()
        let store = try CallStore(.file(db))
        let call = try #require(try store.transaction { tx in try tx.call(callId) })
        #expect(call.state == .ended)
        #expect(call.endReason == .unanswered)
        let endedAt = try #require(call.endedAtMs)
        #expect(endedAt >= expiresAtMs && endedAt < expiresAtMs + 5_000)

        // A third start serves the stored events, and stops cleanly on SIGINT.
        let third = try await ReferenceServerProcess.start(arguments: args, environment: env)
        let api3 = try ReferenceAPIClient(baseURL: third.baseURL)
        let events = try await api3.allEvents("user-a", installation: "a-phone")
        #expect(events.contains { $0["callId"]?.stringValue == callId && $0["reason"] == "unanswered" })
        api3.client.shutdown()
        #expect(await third.interrupt() == 0)
        #expect(third.log.contains("stopped"))
    }
}
