import HTTP
import JSON
import PushMocks
import Signing

/// A full set of mocks on a manual clock with generated keys, and builders for the requests a
/// conforming backend sends (APNs VoIP push, OAuth token exchange, FCM data message).
public struct MockFixture: Sendable {
    /// Keys generated once per test process (RSA generation is slow).
    public static let keys: MockKeyMaterial = {
        do {
            return try MockKeyMaterial.generate(projectID: "ringcheck-test", tokenURI: "https://127.0.0.1/token")
        } catch {
            fatalError("generating mock keys: \(error)")
        }
    }()

    /// A 32-byte APNs device token.
    public static let deviceToken = "ab12cd34ef56" + String(repeating: "0", count: 48) + "9f3e"
    /// An FCM registration token.
    public static let fcmToken = "fcm-token-b:APA91bH" + String(repeating: "x", count: 40) + "Z9"

    public let clock: ManualClock
    public let mocks: MockProviders
    /// The provider token requests carry by default, made once: ES256 signatures are randomised, so each
    /// `providerToken()` call makes a *new* token, and a second new token within 20 minutes is refused.
    public let jwt: String
    public var keys: MockKeyMaterial { Self.keys }

    public init(startMs: Int64 = 1_790_000_000_000, bundleID: String = MockCredentials.defaultBundleID) {
        clock = ManualClock(startMs: startMs)
        var credentials = Self.keys.credentials
        credentials.bundleID = bundleID
        mocks = MockProviders(credentials: credentials, clock: clock.clock)
        do {
            jwt = try Self.keys.apnsKey.providerToken(issuedAt: Double(startMs) / 1000)
        } catch {
            fatalError("signing provider token: \(error)")
        }
    }

    public var nowSeconds: Double { Double(clock.nowMs) / 1000 }

    // MARK: APNs

    /// A provider token signed with the generated key, issued now unless told otherwise.
    public func providerToken(issuedAt: Double? = nil) -> String {
        do {
            return try keys.apnsKey.providerToken(issuedAt: issuedAt ?? nowSeconds)
        } catch {
            fatalError("signing provider token: \(error)")
        }
    }

    /// A provider token with any header and claims, signed with the generated APNs key.
    public func providerToken(header: JSONValue, claims: JSONValue) -> String {
        do {
            return try JWT.sign(header: header, claims: claims, key: keys.apnsKey.privateKey)
        } catch {
            fatalError("signing: \(error)")
        }
    }

    /// The callx VoIP invitation body from the reference design.
    public static let voipBody: [UInt8] = Array(
        """
        {"aps":{},"callx":{"schemaVersion":1,"eventId":"evt-invite-001","type":"call.invited",\
        "callId":"85a4fd88-b5c3-4f79-a2cf-a7db9df06750","revision":"1","displayName":"Alex",\
        "handle":"callx:user-a","issuedAtMs":1790000000000,"expiresAtMs":1790000030000}}
        """.utf8)

    /// The headers of a conforming VoIP push.
    public func voipHeaders(jwt: String? = nil) -> [(String, String)] {
        [
            ("authorization", "bearer \(jwt ?? self.jwt)"), ("apns-push-type", "voip"),
            ("apns-topic", mocks.credentials.voipTopic), ("apns-priority", "10"), ("apns-expiration", "0"),
            ("content-type", "application/json"),
        ]
    }

    /// An APNs push to `token` that the listener read at position `arrivalOrder` of `ArrivalOrder` (the mocks'
    /// order of reads), at the fixture clock's millisecond: tests of what arrived before what put several in
    /// the same millisecond and tell them apart by this order only.
    ///
    /// ```swift
    /// let first = f.apnsRequest(token: token, readAt: ArrivalOrder.next())
    /// ```
    public func apnsRequest(token: String, readAt arrivalOrder: UInt64) -> HTTPRequest {
        var r = apnsRequest(token: token)
        r.arrivalOrder = arrivalOrder
        return r
    }

    /// An APNs request read now on connection `connectionID`, whose accept was at `openedOrder` in `ArrivalOrder`;
    /// `opensConnection` when it is the connection's first request (`Capture.onItsWayOrder` counts from the accept).
    ///
    /// ```swift
    /// let copy = f.apnsRequest(token: token, connectionID: 2, openedAt: opened, opensConnection: true)
    /// ```
    public func apnsRequest(token: String, connectionID: UInt64, openedAt openedOrder: UInt64, opensConnection: Bool)
        -> HTTPRequest
    {
        var r = apnsRequest(token: token, connectionID: connectionID)
        r.connection.openedOrder = openedOrder
        r.opensConnection = opensConnection
        r.arrivalOrder = ArrivalOrder.next()
        return r
    }

    /// A request to an APNs mock. `headers` replace the VoIP defaults of the same name; a nil value removes one.
    public func apnsRequest(
        token: String = deviceToken, headers overrides: [(String, String?)] = [], extraHeaders: [(String, String)] = [],
        body: [UInt8] = voipBody, method: String = "POST", path: String? = nil, connectionID: UInt64 = 1,
        version: HTTPVersion = .http2, authority: String? = "api.push.apple.com"
    ) -> HTTPRequest {
        var headers = HTTPHeaders(voipHeaders())
        for (name, value) in overrides {
            headers.remove(name)
            if let value { headers.add(name, value) }
        }
        for (name, value) in extraHeaders { headers.add(name, value) }
        return HTTPRequest(
            method: method, target: path ?? "/3/device/\(token)", authority: authority, headers: headers, body: body,
            version: version, connection: Self.connection(connectionID), streamID: 1, arrivalMs: clock.nowMs)
    }

    public static func connection(_ id: UInt64) -> ConnectionInfo {
        ConnectionInfo(id: id, remoteAddress: "127.0.0.1:5\(id)", localPort: 443, isTLS: true, alpn: "h2")
    }

    // MARK: OAuth and FCM

    /// A service-account assertion as SDKs make it.
    public func assertion(
        scope: String = "https://www.googleapis.com/auth/firebase.messaging", issuedAt: Double? = nil,
        lifetime: Double = 3600
    ) -> String {
        do {
            return try keys.serviceAccount.assertion(scope: scope, issuedAt: issuedAt ?? nowSeconds, lifetime: lifetime)
        } catch {
            fatalError("signing assertion: \(error)")
        }
    }

    /// An assertion with any header and claims, signed with the service account's key.
    public func assertion(header: JSONValue, claims: JSONValue) -> String {
        do {
            return try JWT.sign(header: header, claims: claims, key: keys.serviceAccount.privateKey)
        } catch {
            fatalError("signing: \(error)")
        }
    }

    /// The claims SDKs send, for tests that tweak one.
    public func assertionClaims(
        scope: String = "https://www.googleapis.com/auth/firebase.messaging", iat: JSONValue? = nil,
        exp: JSONValue? = nil
    ) -> JSONValue {
        let now = Int64(nowSeconds)
        return [
            "iss": .string(keys.serviceAccount.clientEmail), "scope": .string(scope),
            "aud": "https://oauth2.googleapis.com/token", "iat": iat ?? .int(now), "exp": exp ?? .int(now + 3600),
        ]
    }

    /// A form-encoded token request.
    public func oauthRequest(
        assertion: String?, grantType: String? = "urn:ietf:params:oauth:grant-type:jwt-bearer", path: String = "/token",
        authority: String = "oauth2.googleapis.com"
    ) -> HTTPRequest {
        var parts: [String] = []
        if let grantType { parts.append("grant_type=" + Self.formEncode(grantType)) }
        if let assertion { parts.append("assertion=" + Self.formEncode(assertion)) }
        return HTTPRequest(
            method: "POST", target: path, authority: authority,
            headers: ["content-type": "application/x-www-form-urlencoded"],
            body: Array(parts.joined(separator: "&").utf8),
            version: .http1_1, connection: Self.connection(100), arrivalMs: clock.nowMs)
    }

    /// Performs the OAuth exchange and returns the access token (fails the process if the mock refuses).
    public func accessToken() async -> String {
        let response = await mocks.oauth.handle(oauthRequest(assertion: assertion()))
        guard response.status == 200, let json = try? JSONValue.parse(response.body),
            let token = json["access_token"]?.stringValue
        else {
            fatalError("OAuth exchange failed: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        return token
    }

    /// The callx FCM invitation from the reference design.
    public static func callxMessage(token: String = fcmToken) -> JSONValue {
        [
            "message": [
                "token": .string(token),
                "android": ["priority": "HIGH", "ttl": "30s"],
                "data": [
                    "callx":
                        #"{"schemaVersion":1,"eventId":"evt-invite-001","type":"call.invited","callId":"85a4fd88-b5c3-4f79-a2cf-a7db9df06750","revision":"1","displayName":"Alex","handle":"callx:user-a","issuedAtMs":1790000000000,"expiresAtMs":1790000030000}"#
                ],
            ]
        ]
    }

    /// A send request to the FCM mock.
    public func fcmRequest(
        _ body: JSONValue, accessToken: String?, project: String? = nil, method: String = "POST"
    ) -> HTTPRequest {
        fcmRequest(raw: body.bytes(), accessToken: accessToken, project: project, method: method)
    }

    /// A send request with a raw body.
    public func fcmRequest(raw: [UInt8], accessToken: String?, project: String? = nil, method: String = "POST")
        -> HTTPRequest
    {
        var headers: HTTPHeaders = ["content-type": "application/json"]
        if let accessToken { headers.add("authorization", "Bearer \(accessToken)") }
        return HTTPRequest(
            method: method, target: "/v1/projects/\(project ?? mocks.credentials.fcmProjectID)/messages:send",
            authority: "fcm.googleapis.com", headers: headers, body: raw, version: .http1_1,
            connection: Self.connection(200), arrivalMs: clock.nowMs)
    }

    static func formEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(b)))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            }
        }
        return out
    }
}

/// Reading mock responses in tests.
extension HTTPResponse {
    /// The body as JSON, or nil.
    public var jsonBody: JSONValue? { try? JSONValue.parse(body) }
    /// APNs `reason` of an error body.
    public var apnsReason: String? { jsonBody?["reason"]?.stringValue }
    /// FCM `errorCode` of a Google error body.
    public var fcmErrorCode: String? { jsonBody?.value(atPath: "error.details.0.errorCode")?.stringValue }
    /// Google `error.status`.
    public var googleStatus: String? { jsonBody?.value(atPath: "error.status")?.stringValue }
}
