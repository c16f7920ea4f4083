import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

@Suite struct CaptureLogTests {
    let f = MockFixture()
    var log: CaptureLog { f.mocks.log }

    static func request(_ n: Int, token: String = "tok") -> Capture {
        var c = Capture(
            request: HTTPRequest(method: "POST", target: "/3/device/\(token)"), mock: .apns, arrivalMs: Int64(n))
        c.deviceToken = token
        c.outcome = .accepted
        return c
    }

    // MARK: Value semantics

    /// Captures share their storage until one is changed: a change must never show through a copy,
    /// nor through what the log holds.
    @Test func copiesOfACaptureAreIndependent() async throws {
        let original = Self.request(1, token: "a")
        var copy = original
        copy.deviceToken = "b"
        copy.detail = "changed"
        copy.apns = APNsPushInfo(topic: "t", apnsID: "x")
        #expect(original.deviceToken == "a" && original.detail == nil && original.apns == nil)
        #expect(copy.deviceToken == "b" && copy.detail == "changed" && copy.apns?.topic == "t")

        let stored = log.record(original)
        #expect(stored.sequence == 1)
        #expect(original.sequence == 0)
        var kept = try #require(log.captures().first)
        kept.deviceToken = "c"
        #expect(log.captures().first?.deviceToken == "a")
        #expect(stored.deviceToken == "a")
    }

    /// The request's fields live in the request the capture keeps: changing one in a copy changes
    /// neither the original nor the request; `authority` and `addressedHost` follow the request until set.
    @Test func requestFieldsOfACopyChangeAlone() async throws {
        let request = HTTPRequest(
            method: "POST", target: "/3/device/a", headers: ["host": "api.push.apple.com"], body: [1],
            connection: ConnectionInfo(id: 7, remoteAddress: "127.0.0.1:9", localPort: 1, isTLS: true))
        let original = Capture(request: request, mock: .apns, arrivalMs: 1)
        #expect(original.authority == "api.push.apple.com" && original.addressedHost == .apnsProduction)
        var copy = original
        copy.method = "PUT"
        copy.target = "/x"
        copy.headers = ["a": "b"]
        copy.body = [2]
        copy.connectionID = 8
        copy.streamID = 3
        copy.httpVersion = .http1_1
        copy.authority = nil
        copy.addressedHost = nil
        #expect(copy.method == "PUT" && copy.target == "/x" && copy.headers == ["a": "b"] && copy.body == [2])
        #expect(copy.connectionID == 8 && copy.streamID == 3 && copy.httpVersion == .http1_1)
        #expect(copy.authority == nil && copy.addressedHost == nil)
        #expect(original.method == "POST" && original.target == "/3/device/a" && original.body == [1])
        #expect(original.headers == ["host": "api.push.apple.com"] && original.connectionID == 7)
        #expect(original.streamID == nil && original.httpVersion == .http2)
        #expect(original.authority == "api.push.apple.com" && original.addressedHost == .apnsProduction)
        #expect(request.method == "POST" && request.connectionID == 7)
    }

    // MARK: Contents

    @Test func recordsEveryFieldOfAnAcceptedPush() async throws {
        var request = f.apnsRequest(connectionID: 42)
        request.streamID = 5
        request.arrivalMs = 1_790_000_000_123
        _ = await f.mocks.apnsSandbox.handle(request)
        let c = try #require(log.captures().first)
        #expect(c.sequence == 1)
        #expect(c.arrivalMs == 1_790_000_000_123)
        #expect(c.mock == .apns && c.environment == .sandbox)
        #expect(c.authority == "api.push.apple.com")
        #expect(c.deviceToken == MockFixture.deviceToken)
        #expect(c.method == "POST" && c.path == "/3/device/\(MockFixture.deviceToken)")
        #expect(c.headers["apns-push-type"] == "voip")
        #expect(c.body == MockFixture.voipBody)
        #expect(c.json?.value(atPath: "callx.callId") == "85a4fd88-b5c3-4f79-a2cf-a7db9df06750")
        #expect(c.response.status == 200 && c.response.headers["apns-id"] != nil)
        #expect(c.outcome == .accepted && c.fault == nil)
        #expect(c.connectionID == 42 && c.streamID == 5 && c.httpVersion == .http2)
        #expect(c.responseSent)
    }

    @Test func recordsRejectionsWithReasonAndDetail() async throws {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest(headers: [("apns-priority", "7")]))
        let c = try #require(log.captures().first)
        #expect(c.outcome == .rejected(reason: "BadPriority"))
        #expect(c.detail?.contains("10, 5 or 1") == true)
        #expect(c.response.status == 400)
    }

    @Test func usesTheClockWhenTheRequestHasNoArrivalTime() async throws {
        var request = f.apnsRequest()
        request.arrivalMs = 0
        _ = await f.mocks.apnsProduction.handle(request)
        #expect(log.captures().first?.arrivalMs == f.clock.nowMs)
    }

    // MARK: Queries

    @Test func filtersByMockTokenAndSequence() async {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        _ = await f.mocks.apnsSandbox.handle(f.apnsRequest(token: String(repeating: "cd", count: 32)))
        _ = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: await f.accessToken()))
        #expect(log.count == 4)  // including the OAuth exchange
        #expect(log.captures(CaptureFilter(mock: .apns)).count == 2)
        #expect(log.captures(CaptureFilter(mock: .oauth)).count == 1)
        #expect(log.captures(CaptureFilter(deviceToken: MockFixture.deviceToken.uppercased())).count == 1)
        #expect(log.captures(CaptureFilter(deviceToken: MockFixture.fcmToken)).first?.mock == .fcm)
        #expect(log.captures(CaptureFilter(environment: .sandbox)).count == 1)
        #expect(log.captures(CaptureFilter(afterSequence: 2)).map(\.sequence) == [3, 4])
        #expect(log.captures(CaptureFilter(sinceMs: f.clock.nowMs + 1)).isEmpty)
        #expect(log.captures(CaptureFilter(acceptedOnly: true)).count == 4)
    }

    @Test func clearKeepsNumbering() {
        log.record(Self.request(1))
        log.record(Self.request(2))
        #expect(log.clear() == 2)
        #expect(log.count == 0)
        #expect(log.record(Self.request(3)).sequence == 3)
        #expect(log.lastSequence == 3)
    }

    @Test func capacityDropsOldest() {
        let small = CaptureLog(capacity: 3)
        for i in 1...5 { small.record(Self.request(i)) }
        #expect(small.captures().map(\.sequence) == [3, 4, 5])
    }

    // MARK: Waiting

    @Test func waitReturnsExistingCaptureImmediately() async {
        log.record(Self.request(1, token: "a"))
        let found = await log.waitFor({ $0.deviceToken == "a" }, timeout: .seconds(5))
        #expect(found?.sequence == 1)
    }

    @Test func waitWakesOnRecord() async {
        let waiter = Task { await log.waitFor({ $0.deviceToken == "late" }, timeout: .seconds(10)) }
        try? await Task.sleep(for: .milliseconds(20))
        log.record(Self.request(1, token: "other"))
        log.record(Self.request(2, token: "late"))
        let found = await waiter.value
        #expect(found?.deviceToken == "late")
        #expect(found?.sequence == 2)
    }

    @Test func waitForCountCollectsMatches() async {
        let waiter = Task { await log.waitFor(count: 3, matching: { $0.deviceToken == "x" }, timeout: .seconds(10)) }
        for i in 1...5 { log.record(Self.request(i, token: i % 2 == 0 ? "y" : "x")) }
        let found = await waiter.value
        #expect(found.map(\.sequence) == [1, 3, 5])
    }

    @Test func waitTimesOutWithPartialMatches() async {
        log.record(Self.request(1, token: "x"))
        let clock = ContinuousClock()
        let start = clock.now
        let found = await log.waitFor(count: 2, matching: { $0.deviceToken == "x" }, timeout: .milliseconds(50))
        #expect(found.count == 1)
        #expect(clock.now - start >= .milliseconds(50))
        #expect(await log.waitFor({ $0.deviceToken == "never" }, timeout: .milliseconds(10)) == nil)
    }

    @Test func waitEndsOnCancellation() async {
        let waiter = Task { await log.waitFor({ _ in false }, timeout: .seconds(60)) }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        #expect(await waiter.value == nil)
    }

    @Test func manyConcurrentWaitersAllWake() async {
        await withTaskGroup(of: Int?.self) { group in
            for i in 0..<50 {
                group.addTask { await log.waitFor({ $0.deviceToken == "t\(i)" }, timeout: .seconds(10))?.sequence }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(10))
                for i in 0..<50 { log.record(Self.request(i, token: "t\(i)")) }
                return nil
            }
            var woken = 0
            for await result in group where result != nil { woken += 1 }
            #expect(woken == 50)
        }
    }
}

@Suite struct CaptureRedactionTests {
    let f = MockFixture()

    func rendered(_ capture: Capture, reveal: Bool = false) -> String {
        capture.json(revealSecrets: reveal).serialized()
    }

    @Test func apnsCaptureIsRedactedByDefault() async throws {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        let c = try #require(f.mocks.log.captures().first)
        let json = c.json()
        let text = json.serialized()
        #expect(!text.contains(MockFixture.deviceToken))
        #expect(!text.contains(f.jwt))
        #expect(json["deviceToken"] == "ab12…9f3e")
        #expect(json["target"] == "/3/device/ab12…9f3e")
        #expect(text.contains("<redacted jwt kid=\(f.keys.apnsKey.keyID)>"))
        // Raw values stay in memory.
        #expect(c.deviceToken == MockFixture.deviceToken)
        #expect(c.headers["authorization"] == "bearer \(f.jwt)")
    }

    /// The mock reuses the secrets list of the previous push when both tokens repeat: pushes that
    /// alternate devices must each redact their own token.
    @Test func eachCaptureRedactsItsOwnDeviceToken() async throws {
        let other = String(repeating: "c0ffee", count: 10) + "0042"
        for token in [MockFixture.deviceToken, MockFixture.deviceToken, other, MockFixture.deviceToken, other] {
            _ = await f.mocks.apnsProduction.handle(f.apnsRequest(token: token))
        }
        let captures = f.mocks.log.captures()
        #expect(captures.count == 5)
        for c in captures {
            let text = rendered(c)
            #expect(!text.contains(MockFixture.deviceToken) && !text.contains(other) && !text.contains(f.jwt))
            #expect(c.secrets.map(\.value) == [try #require(c.deviceToken), f.jwt])
        }
        #expect(
            captures.map(\.deviceToken) == [
                MockFixture.deviceToken, MockFixture.deviceToken, other, MockFixture.deviceToken, other,
            ])
    }

    @Test func revealShowsSecrets() async throws {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        let text = rendered(try #require(f.mocks.log.captures().first), reveal: true)
        #expect(text.contains(MockFixture.deviceToken))
        #expect(text.contains(f.jwt))
    }

    @Test func oauthAndFCMSecretsAreRedacted() async throws {
        let assertion = f.assertion()
        let response = await f.mocks.oauth.handle(f.oauthRequest(assertion: assertion))
        let access = try #require(response.jsonBody?["access_token"]?.stringValue)
        _ = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: access))
        let all = f.mocks.log.captures().map { rendered($0) }.joined()
        #expect(!all.contains(assertion))
        #expect(!all.contains(access))
        #expect(!all.contains(MockFixture.fcmToken))
        #expect(all.contains("<redacted jwt kid=\(f.keys.serviceAccount.privateKeyID)>"))
        #expect(all.contains("<redacted>"))
        #expect(all.contains(MockFixture.fcmToken.prefix(4) + "…"))
        let revealed = f.mocks.log.captures().map { rendered($0, reveal: true) }.joined()
        #expect(revealed.contains(access) && revealed.contains(assertion))
    }

    @Test func unknownAuthorizationValuesAreRedacted() throws {
        var headers = HTTPHeaders()
        headers.add("authorization", "Basic dXNlcjpwYXNz")
        let capture = Capture(
            request: HTTPRequest(method: "GET", target: "/", headers: headers), mock: .fcm, arrivalMs: 1)
        #expect(!rendered(capture).contains("dXNlcjpwYXNz"))
        #expect(rendered(capture, reveal: true).contains("dXNlcjpwYXNz"))
    }

    @Test func privateKeysAreNeverShown() throws {
        let pem = try f.keys.apnsKey.p8PEM()
        let body: JSONValue = ["note": .string("key: " + pem), "private_key": "abc"]
        let capture = Capture(
            request: HTTPRequest(method: "POST", target: "/token", body: Array(("x" + pem).utf8)), mock: .oauth,
            arrivalMs: 1)
        var withJSON = capture
        withJSON.json = body
        for reveal in [false, true] {
            let text = rendered(withJSON, reveal: reveal)
            #expect(!text.contains("PRIVATE KEY-----\\n"), "reveal \(reveal)")
            #expect(!text.contains("\"abc\""))
            #expect(text.contains("<redacted private key>"))
        }
    }

    @Test func shortTokenShape() {
        #expect(Redaction.shortToken("ab12cd34ef569f3e") == "ab12…9f3e")
        #expect(Redaction.shortToken("short") == "sh…")
    }
}
