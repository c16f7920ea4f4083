import JSON
import PushMocks
import TestSupport
import Testing

/// The control API on its plain-HTTP port, driven by curl over h2c with prior knowledge and HTTP/1.1.
@Suite struct MockStackControlAPITests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    @Test(arguments: [true, false])
    func healthOverH2cAndHTTP1(http2: Bool) async throws {
        let r = try await clients.control("GET", "/v1/health", http2: http2)
        #expect(r.status == 200 && r.httpVersion == (http2 ? "2" : "1.1"), "\(r)")
        #expect(r.json?["status"] == "ok" && r.json?["captures"]?.intValue == 0)
        let unknown = try await clients.control("GET", "/v1/nothing", http2: http2)
        #expect(unknown.status == 404 && unknown.json?["error"] != nil)
        let wrongMethod = try await clients.control("PUT", "/v1/captures", http2: http2)
        #expect(wrongMethod.status == 405 && wrongMethod.json?["error"] != nil)
    }

    @Test func capturesFilterByMockDeviceTokenAndSequence() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let other = String(repeating: "7a", count: 32)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        #expect(try await clients.apnsPush(token: other, jwt: jwt, sandbox: true).status == 200)
        let fcm = try await clients.curl(
            mocks.settings.fcmURL + "/v1/projects/\(mocks.settings.fcmProjectID)/messages:send", method: "POST",
            headers: [("content-type", "application/json")], body: MockFixture.callxMessage().serialized())
        #expect(fcm.status == 401)
        let bookmark = mocks.log.lastSequence
        #expect(try await clients.apnsPush(token: other, jwt: jwt).status == 200)

        func sequences(_ query: String) async throws -> [Int] {
            try await clients.captures(query).compactMap { $0["sequence"]?.intValue }
        }
        #expect(try await sequences("") == [1, 2, 3, 4])
        #expect(try await sequences("mock=apns") == [1, 2, 4])
        #expect(try await sequences("mock=fcm") == [3])
        #expect(try await sequences("deviceToken=\(other)") == [2, 4])
        #expect(try await sequences("deviceToken=\(other.uppercased())") == [2, 4])
        #expect(try await sequences("since=\(bookmark)") == [4])
        #expect(try await sequences("mock=apns&environment=sandbox") == [2])
        #expect(try await sequences("mock=apns&deviceToken=\(MockStackClients.deviceToken)&since=0") == [1])
        let late = try #require(mocks.log.captures().last?.arrivalMs)
        #expect(try await sequences("sinceMs=\(late)") == [4])
        let bad = try await clients.control("GET", "/v1/captures?mock=gcm")
        #expect(bad.status == 400 && bad.json?["error"] != nil)
    }

    @Test func capturesAreRedactedUnlessRevealed() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        let token = MockStackClients.deviceToken
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        let flow = try await clients.googleSend([MockFixture.callxMessage()])
        let accessToken = try #require(flow["accessToken"]?.stringValue)
        let fcmToken = MockFixture.fcmToken

        let redacted = try await clients.control("GET", "/v1/captures")
        #expect(redacted.status == 200 && redacted.json?["captures"]?.arrayValue?.count == 3)
        for secret in [jwt, token, accessToken, fcmToken] {
            #expect(!redacted.body.contains(secret), "\(secret) in \(redacted.body)")
        }
        #expect(redacted.body.contains(Redaction.shortToken(token)))
        #expect(redacted.body.contains("<redacted jwt kid=\(mocks.settings.apnsKeyID)>"))
        let apns = try #require(redacted.json?.value(atPath: "captures.0"))
        #expect(apns["deviceToken"]?.stringValue == Redaction.shortToken(token))
        #expect(apns["mock"] == "apns" && apns["environment"] == "production" && apns["outcome"] == "accepted")

        let revealed = try await clients.control("GET", "/v1/captures?reveal=true")
        for secret in [jwt, token, accessToken, fcmToken] {
            #expect(revealed.body.contains(secret), "\(secret) missing")
        }
        let headers = revealed.json?.value(atPath: "captures.0.headers")?.arrayValue ?? []
        #expect(headers.contains(["authorization", .string("bearer \(jwt)")]))
        #expect(revealed.json?.value(atPath: "captures.0.deviceToken")?.stringValue == token)
    }

    @Test func deletingCapturesEmptiesTheLogButKeepsNumbering() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        let cleared = try await clients.control("DELETE", "/v1/captures", http2: false)
        #expect(cleared.status == 200 && cleared.json?["cleared"]?.intValue == 2, "\(cleared)")
        #expect(try await clients.captures().isEmpty)
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        #expect(try await clients.captures().compactMap { $0["sequence"]?.intValue } == [3])
        let health = try await clients.control("GET", "/v1/health")
        #expect(health.json?["captures"]?.intValue == 1 && health.json?["lastSequence"]?.intValue == 3)
    }

    @Test func waitReturnsOnceTheCaptureArrives() async throws {
        let jwt = try #require(try await clients.providerTokens()["valid"])
        async let waited = clients.control(
            "GET", "/v1/captures/wait?mock=apns&deviceToken=\(MockStackClients.deviceToken)&timeoutMs=10000")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await clients.apnsPush(jwt: jwt).status == 200)
        let r = try await waited
        #expect(r.status == 200 && r.json?["complete"] == true && r.json?["captures"]?.arrayValue?.count == 1, "\(r)")
        let timedOut = try await clients.control("GET", "/v1/captures/wait?mock=fcm&timeoutMs=200")
        #expect(timedOut.status == 408 && timedOut.json?["complete"] == false)
    }
}
