import JSON
import PushMocks
import TestSupport
import Testing

/// Google OAuth and FCM HTTP v1 over real TLS sockets, driven by Python as a backend would: PyJWT
/// signs the assertion from the written service-account JSON, urllib posts it to `token_uri` and sends
/// the message with the access token, verifying TLS with the ringcheck CA file.
@Suite struct MockStackGoogleTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    static let fcmToken = MockFixture.fcmToken

    /// The seed's data-only invitation, optionally with the spellings SDKs use.
    static func invitation(priority: String = "HIGH", ttl: String = "30s") -> JSONValue {
        let data = MockFixture.callxMessage(token: fcmToken).value(atPath: "message.data") ?? .null
        return [
            "message": [
                "token": .string(fcmToken), "android": ["priority": .string(priority), "ttl": .string(ttl)],
                "data": data,
            ]
        ]
    }

    @Test func serviceAccountFlowThenDataOnlyHighPriorityMessage() async throws {
        let before = MockStackHarness.nowMs()
        let result = try await clients.googleSend([Self.invitation(), Self.invitation(priority: "high", ttl: "29.5s")])
        let oauth = try #require(result["oauth"])
        #expect(oauth["status"]?.intValue == 200, "\(oauth)")
        let token = try JSONValue.parse(oauth["body"]?.stringValue ?? "")
        #expect(token["token_type"] == "Bearer")
        #expect((token["expires_in"]?.intValue ?? 0) > 3000)
        let accessToken = try #require(token["access_token"]?.stringValue)

        let sends = result["sends"]?.arrayValue ?? []
        #expect(sends.count == 2)
        for send in sends {
            #expect(send["status"]?.intValue == 200, "\(send)")
            let name = try JSONValue.parse(send["body"]?.stringValue ?? "")["name"]?.stringValue ?? ""
            #expect(name.hasPrefix("projects/\(mocks.settings.fcmProjectID)/messages/"), "\(send)")
        }

        let account = mocks.stack.keys.serviceAccount
        let exchange = try #require(mocks.log.captures(CaptureFilter(mock: .oauth)).first)
        #expect(exchange.outcome == .accepted && exchange.oauthClient == account.clientEmail)
        #expect(exchange.headers["content-type"] == "application/x-www-form-urlencoded")

        let pushes = mocks.log.captures(CaptureFilter(mock: .fcm))
        #expect(pushes.count == 2)
        let push = try #require(pushes.first)
        #expect(push.outcome == .accepted && push.arrivalMs >= before)
        #expect(push.target == "/v1/projects/\(mocks.settings.fcmProjectID)/messages:send")
        #expect(push.headers["authorization"] == "Bearer \(accessToken)")
        #expect(push.deviceToken == Self.fcmToken)
        #expect(push.fcmTarget == FCMTarget(kind: .token, value: Self.fcmToken))
        #expect(push.fcm?.priority == "HIGH" && push.fcm?.ttlSeconds == 30)
        #expect(push.fcm?.hasNotification == false)
        #expect(push.fcm?.data["callx"]?.contains(#""type":"call.invited""#) == true)
        // SDK spellings: lower-case priority and a fractional Duration.
        #expect(pushes.last?.fcm?.priority == "HIGH" && pushes.last?.fcm?.ttlSeconds == 29.5)
    }
}
