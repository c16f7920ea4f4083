import HTTP
import JSON
import PushMocks
import TestSupport
import Testing

/// What APNs, FCM and Google OAuth refuse, refused over the wire to curl and Python, with the status,
/// reason and body shape of the real services, and each refusal captured.
@Suite struct MockStackRejectionTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    /// One refused APNs request: a token from `providerTokens()` by name (nil: none), header changes.
    struct APNsCase: Sendable, CustomStringConvertible {
        var description: String
        var jwt: String? = "valid"
        var overrides: [(String, String?)] = []
        var extraHeaders: [(String, String)] = []
        var body: String = MockStackClients.voipBody
        var method = "POST"
        var path: String? = nil
        var status: Int
        var reason: String
    }

    static let apnsCases: [APNsCase] = [
        APNsCase(description: "no provider token", jwt: nil, status: 403, reason: "MissingProviderToken"),
        APNsCase(
            description: "token signed by another key", jwt: "foreignKey", status: 403, reason: "InvalidProviderToken"),
        APNsCase(description: "token with another kid", jwt: "wrongKeyID", status: 403, reason: "InvalidProviderToken"),
        APNsCase(description: "token of another team", jwt: "wrongTeam", status: 403, reason: "InvalidProviderToken"),
        APNsCase(description: "HS256 token", jwt: "hs256", status: 403, reason: "InvalidProviderToken"),
        APNsCase(description: "token issued 3700 s ago", jwt: "expired", status: 403, reason: "ExpiredProviderToken"),
        APNsCase(
            description: "not a bearer token", overrides: [("authorization", "basic abc")], status: 403,
            reason: "InvalidProviderToken"),
        APNsCase(description: "no topic", overrides: [("apns-topic", nil)], status: 400, reason: "MissingTopic"),
        APNsCase(
            description: "another app's topic", overrides: [("apns-topic", "com.other.app.voip")], status: 400,
            reason: "TopicDisallowed"),
        APNsCase(
            description: "VoIP push to the bundle topic", overrides: [("apns-topic", MockCredentials.defaultBundleID)],
            status: 400, reason: "DeviceTokenNotForTopic"),
        APNsCase(
            description: "unknown push type", overrides: [("apns-push-type", "call")], status: 400,
            reason: "InvalidPushType"),
        APNsCase(
            description: "background push at priority 10",
            overrides: [("apns-push-type", "background"), ("apns-topic", MockCredentials.defaultBundleID)],
            status: 400, reason: "BadPriority"),
        APNsCase(
            description: "apns-topic twice", extraHeaders: [("apns-topic", MockCredentials.defaultBundleID + ".voip")],
            status: 400, reason: "DuplicateHeaders"),
        APNsCase(description: "priority 7", overrides: [("apns-priority", "7")], status: 400, reason: "BadPriority"),
        APNsCase(
            description: "expiration not a number", overrides: [("apns-expiration", "soon")], status: 400,
            reason: "BadExpirationDate"),
        APNsCase(
            description: "collapse ID of 65 bytes",
            overrides: [("apns-collapse-id", String(repeating: "c", count: 65))], status: 400, reason: "BadCollapseId"
        ),
        APNsCase(
            description: "apns-id not a UUID", overrides: [("apns-id", "not-a-uuid")], status: 400,
            reason: "BadMessageId"),
        APNsCase(description: "device token not hex", path: "/3/device/xyz", status: 400, reason: "BadDeviceToken"),
        APNsCase(description: "no device token", path: "/3/device/", status: 400, reason: "MissingDeviceToken"),
        APNsCase(description: "empty payload", body: "", status: 400, reason: "PayloadEmpty"),
        APNsCase(
            description: "VoIP payload of 5121 bytes", body: Self.voipPayload(bytes: 5121), status: 413,
            reason: "PayloadTooLarge"),
        APNsCase(
            description: "alert payload of 4097 bytes",
            overrides: [("apns-push-type", "alert"), ("apns-topic", MockCredentials.defaultBundleID)],
            body: Self.voipPayload(bytes: 4097), status: 413, reason: "PayloadTooLarge"),
        APNsCase(description: "GET", method: "GET", status: 405, reason: "MethodNotAllowed"),
        APNsCase(description: "DELETE", method: "DELETE", status: 405, reason: "MethodNotAllowed"),
        APNsCase(description: "not /3/device", path: "/3/devices/abc", status: 404, reason: "BadPath"),
    ]

    /// A JSON payload of exactly `bytes` bytes.
    static func voipPayload(bytes: Int) -> String {
        let frame = #"{"aps":{},"pad":""}"#
        return #"{"aps":{},"pad":""# + String(repeating: "x", count: bytes - frame.utf8.count) + #""}"#
    }

    @Test func apnsRefusesWhatAPNsRefuses() async throws {
        let tokens = try await clients.providerTokens()
        // The valid token first: the refusals below that get past authentication reuse it.
        let first = try await clients.apnsPush(jwt: tokens["valid"])
        #expect(first.status == 200)
        #expect(try await clients.apnsPush(jwt: tokens["valid"], body: Self.voipPayload(bytes: 5120)).status == 200)

        try await withThrowingTaskGroup(of: (APNsCase, CurlResponse).self) { group in
            for c in Self.apnsCases {
                group.addTask {
                    let r = try await clients.apnsPush(
                        jwt: c.jwt.flatMap { tokens[$0] }, overrides: c.overrides, extraHeaders: c.extraHeaders,
                        body: c.body, method: c.method,
                        path: c.path)
                    return (c, r)
                }
            }
            for try await (c, r) in group {
                #expect(r.status == c.status && r.apnsReason == c.reason, "\(c): \(r.status) \(r.body) \(r.stderr)")
                #expect(r.httpVersion == "2" && r.headers["apns-id"] != nil, "\(c)")
                #expect(r.headers["content-type"] == "application/json", "\(c)")
            }
        }
        let refused = mocks.log.captures { !$0.outcome.isAccepted }.compactMap(\.outcome.reason)
        #expect(refused.sorted() == Self.apnsCases.map(\.reason).sorted())
    }

    /// A VoIP push with provider token `jwt` through `client`.
    func push(_ client: HTTPClient, jwt: String?) async throws -> ClientResponse {
        var headers = HTTPHeaders()
        for (name, value) in clients.voipHeaders(jwt: jwt ?? "") { headers.add(name, value) }
        return try await client.send(
            .post(
                mocks.settings.apnsURL + "/3/device/\(MockStackClients.deviceToken)", headers: headers,
                body: MockStackClients.voipBody))
    }

    @Test func apnsRefusesANewProviderTokenWithinTwentyMinutesOnOneConnection() async throws {
        let tokens = try await clients.providerTokens()
        // One connection: libcurl reuses it for every request to the host.
        let client = try HTTPClient(
            configuration: .init(caFile: mocks.settings.caFile, httpVersion: .http2, maxConnectionsPerHost: 1))
        defer { client.shutdown() }
        #expect(try await push(client, jwt: tokens["valid"]).status == 200)
        let renewed = try await push(client, jwt: tokens["renewed"])
        let reason = (try? JSONValue.parse(renewed.body))?["reason"]?.stringValue
        #expect(renewed.status == 429 && reason == "TooManyProviderTokenUpdates", "\(renewed.status) \(reason ?? "")")
        // The first token stays good.
        #expect(try await push(client, jwt: tokens["valid"]).status == 200)
        let connections = Set(mocks.log.captures { $0.mock == .apns }.map(\.connectionID))
        #expect(connections.count == 1)
    }

    @Test func apnsTakesEachConnectionsOwnProviderToken() async throws {
        // A pool (or several processes, or a reconnect): each curl run is a connection of its own.
        let tokens = try await clients.providerTokens()
        for name in ["valid", "renewed", "floatIat", "stringIat"] {
            let r = try await clients.apnsPush(jwt: tokens[name])
            #expect(r.status == 200, "\(name): \(r.status) \(r.body)")
        }
        #expect(try await clients.apnsPush(jwt: tokens["valid"]).status == 200)
    }

    @Test func apnsJudgesRegisteredDevices() async throws {
        let token = String(repeating: "e", count: 64)
        let registered = try await clients.control(
            "POST", "/v1/devices", body: #"{"deviceToken":"\#(token)","status":"unregistered","sinceMs":1790000000000}"#
        )
        #expect(registered.status == 201, "\(registered)")
        let jwt = try await clients.providerTokens()["valid"]
        let r = try await clients.apnsPush(token: token, jwt: jwt)
        #expect(r.status == 410 && r.apnsReason == "Unregistered", "\(r)")
        #expect(r.json?["timestamp"]?.int64Value == 1_790_000_000_000)

        let sandboxOnly = String(repeating: "5", count: 64)
        let bound = try await clients.control(
            "POST", "/v1/devices", body: #"{"deviceToken":"\#(sandboxOnly)","environment":"sandbox"}"#)
        #expect(bound.status == 201, "\(bound)")
        #expect(try await clients.apnsPush(token: sandboxOnly, jwt: jwt, sandbox: true).status == 200)
        let production = try await clients.apnsPush(token: sandboxOnly, jwt: jwt)
        #expect(production.status == 400 && production.apnsReason == "BadDeviceToken", "\(production)")
    }

    // MARK: FCM and OAuth

    @Test func fcmAndOAuthRefuseWhatGoogleRefuses() async throws {
        let data = MockFixture.callxMessage().value(atPath: "message.data") ?? .null
        let nonString: JSONValue = ["message": ["token": "fcm-1", "data": ["n": 1]]]
        let twoTargets: JSONValue = ["message": ["token": "fcm-1", "topic": "calls", "data": data]]
        let flow = try await clients.googleSend([nonString, twoTargets])
        let sends = flow["sends"]?.arrayValue ?? []
        #expect(sends.count == 2, "\(flow)")
        for send in sends {
            #expect(send["status"]?.intValue == 400, "\(send)")
            let body = try JSONValue.parse(send["body"]?.stringValue ?? "")
            #expect(body.value(atPath: "error.code")?.intValue == 400)
            #expect(body.value(atPath: "error.status") == "INVALID_ARGUMENT")
            #expect(body.value(atPath: "error.message")?.stringValue?.isEmpty == false)
            #expect(
                body.value(atPath: "error.details.0.@type") == "type.googleapis.com/google.firebase.fcm.v1.FcmError")
            #expect(body.value(atPath: "error.details.0.errorCode") == "INVALID_ARGUMENT")
        }
        let accessToken = try #require(flow["accessToken"]?.stringValue)

        let send = "/v1/projects/\(mocks.settings.fcmProjectID)/messages:send"
        let message = MockFixture.callxMessage().serialized()
        func fcm(_ path: String, bearer: String?, method: String = "POST") async throws -> CurlResponse {
            try await clients.curl(
                mocks.settings.fcmURL + path, method: method,
                headers: [("content-type", "application/json")]
                    + (bearer.map { [("authorization", "Bearer \($0)")] } ?? []),
                body: method == "POST" ? message : nil)
        }
        let anonymous = try await fcm(send, bearer: nil)
        #expect(anonymous.status == 401 && anonymous.json?.value(atPath: "error.status") == "UNAUTHENTICATED")
        #expect(anonymous.json?.value(atPath: "error.code")?.intValue == 401)
        let forged = try await fcm(send, bearer: "ya29.not-issued-by-the-mock")
        #expect(forged.status == 401 && forged.json?.value(atPath: "error.status") == "UNAUTHENTICATED")
        let otherProject = try await fcm("/v1/projects/someone-else/messages:send", bearer: accessToken)
        #expect(otherProject.status == 403 && otherProject.json?.value(atPath: "error.status") == "PERMISSION_DENIED")
        let get = try await fcm(send, bearer: accessToken, method: "GET")
        #expect(get.status == 404 && get.json?.value(atPath: "error.status") == "NOT_FOUND")
        #expect(try await fcm(send, bearer: accessToken).status == 200)

        let badSignature = try await clients.forgedOAuthExchange()
        #expect(badSignature["status"]?.intValue == 400, "\(badSignature)")
        let error = try JSONValue.parse(badSignature["body"]?.stringValue ?? "")
        #expect(error["error"] == "invalid_grant" && error["error_description"] == "Invalid JWT Signature.")

        let password = try await clients.curl(
            mocks.settings.oauthTokenURL, method: "POST",
            headers: [("content-type", "application/x-www-form-urlencoded")], body: "grant_type=password&assertion=x")
        #expect(password.status == 400 && password.json?["error"] == "unsupported_grant_type", "\(password)")

        let refused = Set(mocks.log.captures { !$0.outcome.isAccepted }.compactMap(\.outcome.reason))
        #expect(
            refused.isSuperset(of: ["INVALID_ARGUMENT", "UNAUTHENTICATED", "invalid_grant", "unsupported_grant_type"]))
    }
}
