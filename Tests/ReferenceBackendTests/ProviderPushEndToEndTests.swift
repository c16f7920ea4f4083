import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend
import TestSupport
import Testing

/// The reference backend over real sockets against the mocks: registrations, invitations with
/// exactly the seed's headers and payloads, stop signals, events, expiry and retries.
@Suite(.serialized) struct ProviderPushEndToEndTests {
    static let sandboxToken = ReferenceAPIClient.apnsToken("b-phone-sandbox")
    static let productionToken = ReferenceAPIClient.apnsToken("b-phone-production")
    static let fcmToken = "fcm-b-tablet:APA91b" + String(repeating: "q", count: 40)

    /// user-b with a sandbox iPhone, a production iPhone and an Android tablet.
    func registerCallee(_ stack: ReferenceStack) async throws {
        let api = stack.api
        #expect(
            try await api.registerAPNs(
                "user-b", installation: "b-phone", token: Self.sandboxToken, environment: "sandbox",
                appId: stack.appId
            ).status == 200)
        #expect(
            try await api.registerAPNs(
                "user-b", installation: "b-phone-2", token: Self.productionToken, environment: "production",
                appId: stack.appId
            ).status == 200)
        #expect(
            try await api.registerFCM("user-b", installation: "b-tablet", token: Self.fcmToken, appId: stack.appId)
                .status == 200)
    }

    @Test func invitationsCarryExactlyTheSeedHeadersAndPayloads() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        let callId = UUID().uuidString.lowercased()
        let created = try await stack.api.create(callId)
        #expect(created.status == 200)
        let expiresAtMs = try #require(created["expiresAtMs"]?.int64Value)
        let pushes = await stack.waitForPushes(callId: callId, count: 3)
        try #require(pushes.count == 3)
        #expect(pushes.allSatisfy { $0.outcome == .accepted })

        let apns = pushes.filter { $0.mock == .apns }
        #expect(Set(apns.compactMap(\.environment)) == [.sandbox, .production])
        for push in apns {
            let expectedToken = push.environment == .sandbox ? Self.sandboxToken : Self.productionToken
            #expect(push.deviceToken == expectedToken)
            #expect(push.method == "POST" && push.path == "/3/device/\(expectedToken)")
            #expect(push.headers["apns-push-type"] == "voip")
            #expect(push.headers["apns-topic"] == stack.appId + ".voip")
            #expect(push.headers["apns-priority"] == "10")
            #expect(push.headers["apns-expiration"] == "0")
            #expect(push.headers["content-type"] == "application/json")
            #expect(push.headers["authorization"]?.hasPrefix("bearer ") == true)
            let body = try #require(push.json)
            #expect(body["aps"] == .object([]))
            #expect(body.objectValue?.map(\.key).sorted() == ["aps", "callx"])
            try checkInvitation(try #require(push.callx), callId: callId, expiresAtMs: expiresAtMs)
        }

        let fcm = try #require(pushes.first { $0.mock == .fcm })
        #expect(fcm.path == "/v1/projects/\(stack.mocks.settings.fcmProjectID)/messages:send")
        #expect(fcm.headers["authorization"]?.hasPrefix("Bearer ") == true)
        #expect(fcm.deviceToken == Self.fcmToken)
        let info = try #require(fcm.fcm)
        #expect(info.priority == "HIGH")
        #expect(fcm.json?.value(atPath: "message.android.priority") == "HIGH")
        #expect(!info.hasNotification)
        #expect(fcm.json?.value(atPath: "message.notification") == nil)
        #expect(fcm.json?.value(atPath: "message.data.callx")?.stringValue != nil)
        let callx = try #require(fcm.callx)
        try checkInvitation(callx, callId: callId, expiresAtMs: expiresAtMs)
        // ttl: whole seconds left until expiresAtMs when sent, never 0s.
        let ttlText = try #require(fcm.json?.value(atPath: "message.android.ttl")?.stringValue)
        let ttl = try #require(Int64(ttlText.dropLast()))
        let issuedAtMs = try #require(callx["issuedAtMs"]?.int64Value)
        #expect(ttlText.hasSuffix("s"))
        #expect(ttl >= (expiresAtMs - fcm.arrivalMs) / 1000)
        #expect(ttl <= (expiresAtMs - issuedAtMs + 999) / 1000)
        #expect(ttl > 0)
        await stack.stop()
    }

    func checkInvitation(_ callx: JSONValue, callId: String, expiresAtMs: Int64) throws {
        #expect(callx["schemaVersion"] == 1)
        #expect(callx["type"] == "call.invited")
        #expect(callx["callId"]?.stringValue == callId)
        #expect(callx["revision"] == "1")
        #expect(callx["displayName"] == "Alex")
        #expect(callx["handle"] == "callx:user-a")
        #expect(callx["eventId"]?.stringValue?.isEmpty == false)
        #expect(callx["expiresAtMs"]?.int64Value == expiresAtMs)
        #expect(callx["issuedAtMs"]?.int64Value != nil)
    }

    @Test func answerStopsTheOtherDevicesAndTellsTheCaller() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        _ = try await stack.api.events("user-a", installation: "a-phone")  // binds the caller's installation
        let callId = UUID().uuidString.lowercased()
        try await stack.api.create(callId)
        #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        let answer = try await stack.api.answer(callId, installation: "b-phone")
        #expect(answer.status == 200)
        #expect(answer["state"] == "accepted")
        #expect(answer["revision"] == "2")

        // The Android tablet gets a normal-priority call.ended stop signal; no VoIP push but the invitations.
        let stops = await stack.waitForPushes(callId: callId, count: 1) { $0.callxType == "call.ended" }
        let stop = try #require(stops.first)
        #expect(stop.mock == .fcm && stop.deviceToken == Self.fcmToken)
        #expect(stop.fcm?.priority == "NORMAL")
        #expect(stop.callx?["reason"] == "answeredElsewhere")
        try await Task.sleep(for: .milliseconds(300))
        #expect(stack.pushes(callId: callId).filter { $0.mock == .apns }.allSatisfy { $0.callxType == "call.invited" })

        let callerEvents = try await stack.api.allEvents("user-a", installation: "a-phone")
        let accepted = try #require(callerEvents.first { $0["callId"]?.stringValue == callId })
        #expect(accepted["type"] == "call.accepted")
        #expect(accepted["answeredByInstallationId"] == "b-phone")
        let tabletEvents = try await stack.api.allEvents("user-b", installation: "b-tablet")
        #expect(tabletEvents.contains { $0["type"] == "call.ended" && $0["reason"] == "answeredElsewhere" })
        let winnerEvents = try await stack.api.allEvents("user-b", installation: "b-phone")
        #expect(!winnerEvents.contains { $0["callId"]?.stringValue == callId })

        // A second answer loses with the winner's snapshot.
        let late = try await stack.api.answer(callId, installation: "b-tablet")
        #expect(late.status == 409)
        #expect(late["state"] == "accepted")
        // Hang-up after answer: the other party hears remoteEnded.
        #expect(try await stack.api.end(callId, as: "user-b", reason: "localHangup").status == 200)
        let afterHangUp = try await stack.api.allEvents("user-a", installation: "a-phone")
        #expect(afterHangUp.contains { $0["type"] == "call.ended" && $0["reason"] == "remoteEnded" })
        await stack.stop()
    }

    @Test func cancelWhileRingingStopsEveryCalleeDevice() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        let callId = UUID().uuidString.lowercased()
        try await stack.api.create(callId)
        #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3)
        let ended = try await stack.api.end(callId, as: "user-a", reason: "callerCancelled")
        #expect(ended.status == 200)
        #expect(ended["state"] == "ended")
        let stop = await stack.waitForPushes(callId: callId, count: 1) { $0.callxType == "call.ended" }.first
        #expect(stop?.mock == .fcm)
        #expect(stop?.callx?["reason"] == "callerCancelled")
        for installation in ["b-phone", "b-phone-2", "b-tablet"] {
            let events = try await stack.api.allEvents("user-b", installation: installation)
            #expect(events.contains { $0["type"] == "call.ended" && $0["reason"] == "callerCancelled" })
        }
        await stack.stop()
    }

    @Test func callsExpireOnTimeWithNoTraffic() async throws {
        let stack = try await ReferenceStack.start(ringSeconds: 2)
        try await registerCallee(stack)
        _ = try await stack.api.events("user-a", installation: "a-phone")
        let callId = UUID().uuidString.lowercased()
        let created = try await stack.api.create(callId)
        let expiresAtMs = try #require(created["expiresAtMs"]?.int64Value)
        // No requests until well after the deadline: the sweeper alone must end the call.
        try await Task.sleep(for: .milliseconds(3_000))
        let stored = try #require(
            try stack.server.service.store.transaction { tx in try tx.call(callId) })
        #expect(stored.state == .ended)
        #expect(stored.endReason == .unanswered)
        let endedAt = try #require(stored.endedAtMs)
        #expect(endedAt >= expiresAtMs && endedAt < expiresAtMs + 1_000)
        let callerEvents = try await stack.api.allEvents("user-a", installation: "a-phone")
        #expect(callerEvents.contains { $0["type"] == "call.ended" && $0["reason"] == "unanswered" })
        let calleeEvents = try await stack.api.allEvents("user-b", installation: "b-tablet")
        #expect(calleeEvents.contains { $0["type"] == "call.ended" && $0["reason"] == "unanswered" })
        await stack.stop()
    }

    @Test func deadTokensAreRemoved() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        let faults = stack.mocks.faults
        _ = try faults.install(
            FaultPlan(
                mock: .apns, deviceToken: Self.sandboxToken, respond: FaultResponse(status: 410, reason: "Unregistered")
            ))
        _ = try faults.install(
            FaultPlan(
                mock: .apns, deviceToken: Self.productionToken,
                respond: FaultResponse(status: 400, reason: "BadDeviceToken")))
        _ = try faults.install(
            FaultPlan(
                mock: .fcm, deviceToken: Self.fcmToken, respond: FaultResponse(status: 404, errorCode: "UNREGISTERED")))
        let first = UUID().uuidString.lowercased()
        try await stack.api.create(first)
        #expect(await stack.waitForPushes(callId: first, count: 3).count == 3)
        let store = stack.server.service.store
        var remaining = 3
        for _ in 0..<50 where remaining > 0 {
            remaining = try store.transaction { tx in try tx.registrations(ofUser: "user-b").count }
            if remaining > 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(remaining == 0)
        let second = UUID().uuidString.lowercased()
        #expect(try await stack.api.create(second).status == 200)
        try await Task.sleep(for: .milliseconds(500))
        #expect(stack.pushes(callId: second).isEmpty)
        #expect(stack.pushes(callId: first).count == 3)  // each dead token was tried once, never retried
        await stack.stop()
    }

    @Test func retriesThrough429And503HonouringRetryAfter() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .apns, deviceToken: Self.sandboxToken, times: 1,
                respond: FaultResponse(status: 429, reason: "TooManyRequests"), retryAfter: 1))
        _ = try stack.mocks.faults.install(
            FaultPlan(
                mock: .fcm, deviceToken: Self.fcmToken, times: 1,
                respond: FaultResponse(status: 503, errorCode: "UNAVAILABLE"),
                retryAfter: 1))
        let callId = UUID().uuidString.lowercased()
        try await stack.api.create(callId)
        let pushes = await stack.waitForPushes(callId: callId, count: 5)
        try #require(pushes.count == 5)
        for token in [Self.sandboxToken, Self.fcmToken] {
            let tries = pushes.filter { $0.deviceToken == token }
            try #require(tries.count == 2)
            #expect(tries[0].response.status == (token == Self.fcmToken ? 503 : 429))
            #expect(tries[1].outcome == .accepted)
            #expect(tries[1].arrivalMs - tries[0].arrivalMs >= 950)  // Retry-After: 1
            #expect(tries[0].callx?["eventId"] == tries[1].callx?["eventId"])
        }
        #expect(pushes.filter { $0.deviceToken == Self.productionToken }.count == 1)
        await stack.stop()
    }

    @Test func aSlowProviderDoesNotHoldUpOtherPushes() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        _ = try stack.mocks.faults.install(
            FaultPlan(mock: .apns, deviceToken: Self.sandboxToken, times: 1, latencyMs: 4_000))
        let slow = UUID().uuidString.lowercased()
        try await stack.api.create(slow)
        try await Task.sleep(for: .milliseconds(300))
        let next = UUID().uuidString.lowercased()
        let createdAt = SystemClock.milliseconds()
        try await stack.api.create(next)
        // The second call rings every device at once, while the first call's sandbox push still waits.
        let pushes = await stack.waitForPushes(callId: next, count: 3, timeout: .seconds(3))
        #expect(pushes.count == 3)
        #expect(pushes.allSatisfy { $0.arrivalMs - createdAt < 1_500 })
        #expect(!stack.pushes(callId: slow).contains { $0.deviceToken == Self.sandboxToken })
        await stack.stop()
    }

    @Test func oneProviderTokenAndOneAccessTokenServeManyPushes() async throws {
        let stack = try await ReferenceStack.start()
        try await registerCallee(stack)
        var calls: [String] = []
        for _ in 0..<8 {
            let callId = UUID().uuidString.lowercased()
            calls.append(callId)
            try await stack.api.create(callId)
        }
        for callId in calls { #expect(await stack.waitForPushes(callId: callId, count: 3).count == 3) }
        #expect(stack.mocks.log.captures().filter { $0.mock != .oauth }.allSatisfy { $0.outcome == .accepted })
        #expect(stack.transport.providerTokens.signedCount == 1)
        // The mock verifies a provider token once and then recognises it: one verification per host.
        #expect(stack.mocks.providers.apnsSandbox.providerTokenVerifications == 1)
        #expect(stack.mocks.providers.apnsProduction.providerTokenVerifications == 1)
        #expect(stack.mocks.log.captures().filter { $0.mock == .oauth }.count == 1)
        #expect(stack.transport.accessTokens.exchangeCount == 1)

        // FCM revokes the access token: the next push gets 401, the backend exchanges a new one and resends.
        stack.mocks.providers.tokens.revokeAll()
        let callId = UUID().uuidString.lowercased()
        try await stack.api.create(callId)
        let fcm = await stack.waitForPushes(callId: callId, count: 2) { $0.mock == .fcm }
        #expect(fcm.map(\.response.status) == [401, 200])
        #expect(stack.transport.accessTokens.exchangeCount == 2)
        await stack.stop()
    }

    @Test func tokensAreRenewedBeforeTheyExpireButNotTooOften() async throws {
        let clock = ManualClock(startMs: SystemClock.milliseconds())
        var mockOptions = MockStack.Options.forTests
        mockOptions.clock = clock.clock
        let stack = try await ReferenceStack.start(mockOptions: mockOptions, tokenClock: { clock.nowMs })
        try await stack.api.registerAPNs(
            "user-b", installation: "b-phone", token: Self.sandboxToken, environment: "sandbox", appId: stack.appId)
        try await stack.api.registerFCM("user-b", installation: "b-tablet", token: Self.fcmToken, appId: stack.appId)
        func ring() async throws -> [Capture] {
            let callId = UUID().uuidString.lowercased()
            try await stack.api.create(callId)
            return await stack.waitForPushes(callId: callId, count: 2)
        }
        func allAccepted(_ pushes: [Capture]) -> Bool {
            pushes.count == 2 && pushes.allSatisfy { $0.outcome == .accepted }
        }
        #expect(allAccepted(try await ring()))
        clock.advance(ms: 19 * 60_000)
        #expect(allAccepted(try await ring()))
        #expect(stack.transport.providerTokens.signedCount == 1)
        clock.advance(ms: 35 * 60_000)  // 54 minutes: the provider token is renewed before APNs's one-hour limit
        #expect(allAccepted(try await ring()))
        #expect(stack.transport.providerTokens.signedCount == 2)
        #expect(stack.mocks.providers.apnsSandbox.providerTokenVerifications == 2)
        #expect(stack.transport.accessTokens.exchangeCount == 1)
        clock.advance(ms: 2 * 60_000)  // 56 minutes: the OAuth token (3599 s) is renewed 5 minutes early
        #expect(allAccepted(try await ring()))
        #expect(stack.transport.accessTokens.exchangeCount == 2)
        #expect(stack.transport.providerTokens.signedCount == 2)  // 2 minutes after the last: not again
        #expect(!stack.mocks.log.captures().contains { $0.outcome.reason == "TooManyProviderTokenUpdates" })
        await stack.stop()
    }
}
