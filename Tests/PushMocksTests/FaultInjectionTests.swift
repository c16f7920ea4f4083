import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@Suite struct FaultInjectionTests {
    let f = MockFixture()
    var apns: APNsMock { f.mocks.apnsProduction }
    var faults: FaultPlans { f.mocks.faults }
    var log: CaptureLog { f.mocks.log }

    @Test func respondForTheNextNRequestsThenNormal() async throws {
        try faults.install(
            FaultPlan(mock: .apns, times: 2, respond: FaultResponse(status: 503, reason: "ServiceUnavailable")))
        for _ in 0..<2 {
            let r = await apns.handle(f.apnsRequest())
            #expect(r.status == 503 && r.apnsReason == "ServiceUnavailable" && r.headers["apns-id"] != nil)
        }
        #expect(await apns.handle(f.apnsRequest()).status == 200)
        let captures = log.captures()
        #expect(captures.map { $0.fault?.ordinal } == [1, 2, nil])
        #expect(captures[0].outcome == .rejected(reason: "ServiceUnavailable"))
        #expect(captures[0].fault?.planID == "f1")
    }

    @Test func matchesOnlyTheNamedDeviceToken() async throws {
        let other = String(repeating: "cd", count: 32)
        try faults.install(FaultPlan(deviceToken: other, respond: FaultResponse(reason: "Unregistered")))
        #expect(await apns.handle(f.apnsRequest()).status == 200)
        let r = await apns.handle(f.apnsRequest(token: other))
        #expect(r.status == 410 && r.apnsReason == "Unregistered" && r.jsonBody?["timestamp"] != nil)
    }

    @Test func matchesOnlyTheNamedMock() async throws {
        try faults.install(FaultPlan(mock: .fcm, respond: FaultResponse(errorCode: "UNAVAILABLE")))
        #expect(await apns.handle(f.apnsRequest()).status == 200)
        let token = await f.accessToken()
        #expect(await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token)).status == 503)
    }

    @Test func latencyDelaysTheAnswer() async throws {
        try faults.install(FaultPlan(times: 1, latencyMs: 120))
        let clock = ContinuousClock()
        let start = clock.now
        let r = await apns.handle(f.apnsRequest())
        #expect(clock.now - start >= .milliseconds(120))
        #expect(r.status == 200)
        #expect(log.captures().first?.fault?.plan.latencyMs == 120)
        // The plan was for one request: the next one is neither delayed nor faulted.
        _ = await apns.handle(f.apnsRequest())
        #expect(log.captures().count == 2 && log.captures().last?.fault == nil)
    }

    @Test func retryAfterIsAdded() async throws {
        try faults.install(FaultPlan(respond: FaultResponse(reason: "TooManyRequests"), retryAfter: 30))
        let r = await apns.handle(f.apnsRequest())
        #expect(r.status == 429 && r.headers["retry-after"] == "30")
        #expect(log.captures().first?.response.headers["retry-after"] == "30")
    }

    @Test func resetSendsNoResponse() async throws {
        try faults.install(FaultPlan(times: 1, connection: .reset))
        let r = await apns.handle(f.apnsRequest())
        #expect(r.directive == .resetWithoutResponse)
        let c = try #require(log.captures().first)
        #expect(c.outcome == .rejected(reason: "ConnectionReset"))
        #expect(!c.responseSent)
    }

    @Test func resetAfterAcceptRecordsAcceptedButNeverAnswers() async throws {
        try faults.install(FaultPlan(times: 1, connection: .resetAfterAccept))
        let r = await apns.handle(f.apnsRequest())
        #expect(r.directive == .resetWithoutResponse)
        let c = try #require(log.captures().first)
        #expect(c.outcome == .accepted)
        #expect(c.response.status == 200)
        #expect(!c.responseSent)
        // The retry the backend makes is then a visible duplicate.
        #expect(await apns.handle(f.apnsRequest()).status == 200)
        #expect(log.captures(CaptureFilter(acceptedOnly: true)).count == 2)
    }

    @Test func goawayFollowsTheResponse() async throws {
        try faults.install(FaultPlan(times: 1, respond: FaultResponse(reason: "Shutdown"), connection: .goaway))
        let r = await apns.handle(f.apnsRequest())
        #expect(r.status == 503 && r.apnsReason == "Shutdown")
        #expect(r.directive == .goawayAfterResponse(errorCode: 0, debug: #"{"reason":"Shutdown"}"#))
        try faults.install(FaultPlan(times: 1, connection: .goaway, goawayErrorCode: 2))
        let plain = await apns.handle(f.apnsRequest(connectionID: 3))
        #expect(plain.status == 200)
        guard case .goawayAfterResponse(let code, _) = plain.directive else {
            Issue.record("expected goaway, got \(plain.directive)")
            return
        }
        #expect(code == 2)
    }

    @Test func faultDirectiveWinsOverStreamLimit() async throws {
        try faults.install(FaultPlan(times: 1, connection: .goaway))
        #expect(await apns.handle(f.apnsRequest(connectionID: 77)).directive != .setMaxConcurrentStreams(1000))
        #expect(await apns.handle(f.apnsRequest(connectionID: 77)).directive == .setMaxConcurrentStreams(1000))
    }

    @Test func fcmFaultsResetAndAccept() async throws {
        let token = await f.accessToken()
        try faults.install(FaultPlan(mock: .fcm, times: 1, connection: .resetAfterAccept))
        let r = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token))
        #expect(r.directive == .resetWithoutResponse)
        #expect(log.captures(CaptureFilter(mock: .fcm)).first?.outcome == .accepted)
    }

    @Test func fcmFaultMatchesMessageToken() async throws {
        let token = await f.accessToken()
        try faults.install(FaultPlan(deviceToken: "someone-else", respond: FaultResponse(errorCode: "UNREGISTERED")))
        try faults.install(FaultPlan(deviceToken: MockFixture.fcmToken, respond: FaultResponse(errorCode: "INTERNAL")))
        let r = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token))
        #expect(r.status == 500 && r.fcmErrorCode == "INTERNAL")
    }

    @Test func oauthFaults() async throws {
        try faults.install(FaultPlan(mock: .oauth, times: 1, respond: FaultResponse(status: 503)))
        let r = await f.mocks.oauth.handle(f.oauthRequest(assertion: f.assertion()))
        #expect(r.status == 503 && r.jsonBody?["error"] == "internal_failure")
        #expect(await f.mocks.oauth.handle(f.oauthRequest(assertion: f.assertion())).status == 200)
    }

    @Test func captureJSONShowsTheFault() async throws {
        try faults.install(FaultPlan(id: "slow", times: 1, latencyMs: 1))
        _ = await apns.handle(f.apnsRequest())
        let json = try #require(log.captures().first).json()
        #expect(json.value(atPath: "fault.id") == "slow")
        #expect(json.value(atPath: "fault.ordinal") == 1)
        #expect(json.value(atPath: "fault.latencyMs") == 1)
    }
}
