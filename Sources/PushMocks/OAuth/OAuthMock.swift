import HTTP
import JSON
import Signing

/// A mock Google OAuth 2.0 token endpoint for service accounts (the JWT-bearer grant), issuing the
/// access tokens the `FCMMock` accepts. Every request is recorded in the `CaptureLog`.
///
/// Accepts `application/x-www-form-urlencoded` bodies (what SDKs send) and JSON bodies (what some
/// clients send). The assertion must be RS256, signed by the service account's key, with `kid` (when
/// present) = `private_key_id`, `iss` = `client_email`, a `scope` of Google scopes, an `aud` naming
/// Google's token endpoint or this mock's own (SDKs send Google's URL even when `token_uri` differs;
/// any other audience is `invalid_grant`), and `iat`/`exp` with `exp ≤ iat + 3600`, not expired.
///
/// A scope unrelated to FCM still gets a token, as from Google; the `FCMMock` then refuses it (403).
public final class OAuthMock: HTTPHandler {
    /// The paths the endpoint answers on.
    public static let paths: Set<String> = ["/token", "/o/oauth2/token", "/oauth2/v4/token"]
    /// The grant type of service-account assertions.
    public static let jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// Either scope lets a token send FCM messages.
    public static let fcmScopes: Set<String> = [
        "https://www.googleapis.com/auth/firebase.messaging", "https://www.googleapis.com/auth/cloud-platform",
    ]
    /// Google's token endpoint, the audience SDKs put in assertions whatever their `token_uri`.
    public static let googleTokenURL = "https://oauth2.googleapis.com/token"
    /// The audiences Google accepts besides the mock's own URL: its token endpoint and the older names
    /// of it that long-lived clients still send.
    public static let googleAudiences: Set<String> = [
        googleTokenURL, "https://www.googleapis.com/oauth2/v4/token", "https://accounts.google.com/o/oauth2/token",
    ]
    /// The longest assertion lifetime Google accepts, seconds.
    public static let maxAssertionLifetime: Double = 3600

    /// What the mock trusts.
    public let credentials: MockCredentials
    /// The access tokens issued by the OAuth mock.
    public let tokens: AccessTokenStore
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans?
    /// The time source for token checks and timestamps.
    public let clock: MockClock

    /// A mock judging requests against `credentials`, recording into `log`; `faults` and `registry` are optional.
    public init(
        credentials: MockCredentials, tokens: AccessTokenStore, log: CaptureLog, faults: FaultPlans? = nil,
        clock: MockClock = .system
    ) {
        self.credentials = credentials
        self.tokens = tokens
        self.log = log
        self.faults = faults
        self.clock = clock
    }

    /// A Google OAuth error: `{"error": code, "error_description": description}`.
    struct OAuthError: Error {
        var status: Int
        var error: String
        var description: String

        init(_ status: Int, _ error: String, _ description: String) {
            self.status = status
            self.error = error
            self.description = description
        }

        init(_ error: String, _ description: String) { self.init(400, error, description) }

        var response: HTTPResponse {
            let body: JSONValue = ["error": .string(error), "error_description": .string(description)]
            return HTTPResponse.json(status, body.bytes(), headers: ["content-type": "application/json; charset=utf-8"])
        }

        static let timeframe = OAuthError(
            "invalid_grant",
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. "
                + "Check your iat and exp values in the JWT claim.")
        static let signature = OAuthError("invalid_grant", "Invalid JWT Signature.")
    }

    /// Judges and answers one request, recording it in the capture log.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let now = clock()
        var capture = Capture(
            request: request, mock: .oauth, arrivalMs: request.arrivalMs > 0 ? request.arrivalMs : now)
        let params = Self.parameters(request, json: &capture.json)
        if let assertion = params["assertion"], !assertion.isEmpty {
            capture.secrets.append(CaptureSecret(value: assertion, replacement: Redaction.jwtPlaceholder(assertion)))
        }
        return await FaultedAnswer.answer(
            capture, fault: faults?.next(mock: .oauth, deviceToken: nil), log: log,
            injected: { respond, planID in
                let status = respond.status ?? 400
                let error = OAuthError(
                    status, respond.reason ?? (status >= 500 ? "internal_failure" : "invalid_grant"),
                    respond.message ?? "Injected by ringcheck fault \(planID)")
                return MockRefusal(response: error.response, reason: error.error, detail: error.description)
            },
            judge: { (capture: inout Capture) throws(OAuthError) -> HTTPResponse in
                let (client, scope) = try validate(request, params: params, nowMs: now)
                let grant = tokens.issue(clientEmail: client, scope: scope, nowMs: now)
                capture.secrets.append(CaptureSecret(value: grant.token, replacement: "<redacted>"))
                capture.oauthClient = client
                let body: JSONValue = [
                    "access_token": .string(grant.token), "expires_in": .int(AccessTokenStore.defaultLifetimeSeconds),
                    "token_type": "Bearer",
                ]
                return HTTPResponse.json(
                    200, body.bytes(), headers: ["content-type": "application/json; charset=utf-8"])
            },
            refused: { MockRefusal(response: $0.response, reason: $0.error, detail: $0.description) })
    }

    /// The request's parameters from a JSON object body or a form body (later duplicates win).
    static func parameters(_ request: HTTPRequest, json: inout JSONValue?) -> [String: String] {
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        let first = request.body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if contentType.contains("json") || (!contentType.contains("form") && first == UInt8(ascii: "{")) {
            guard request.body.count <= 1 << 20, let value = try? JSONValue.parse(request.body),
                case .object(let members) = value
            else { return [:] }
            json = value
            var params: [String: String] = [:]
            for (key, member) in members {
                if let s = member.stringValue { params[key] = s }
            }
            return params
        }
        var params: [String: String] = [:]
        let text = String(decoding: request.body, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            params[percentDecode(String(parts[0]))] = parts.count > 1 ? percentDecode(String(parts[1])) : ""
        }
        return params
    }

    /// Checks the grant; returns the client email and scope to issue a token for.
    func validate(_ request: HTTPRequest, params: [String: String], nowMs: Int64) throws(OAuthError) -> (String, String)
    {
        guard Self.paths.contains(request.path) else {
            throw OAuthError(404, "not_found", "Unknown path \(request.path)")
        }
        guard request.method == "POST" else {
            throw OAuthError(405, "invalid_request", "The token endpoint accepts POST only, not \(request.method)")
        }
        guard let grantType = params["grant_type"], !grantType.isEmpty else {
            throw OAuthError("invalid_request", "Missing required parameter: grant_type")
        }
        guard grantType == Self.jwtBearerGrant else {
            throw OAuthError("unsupported_grant_type", "Invalid grant_type: \(grantType)")
        }
        guard let assertion = params["assertion"], !assertion.isEmpty else {
            throw OAuthError("invalid_request", "Missing required parameter: assertion")
        }
        let jwt: JWT
        do {
            jwt = try JWT.decode(assertion)
        } catch {
            throw OAuthError("invalid_grant", "Invalid JWT: \(error.message)")
        }
        guard jwt.algorithm == "RS256" else { throw OAuthError.signature }
        if let kid = jwt.header["kid"], kid != .string(credentials.serviceAccountKeyID) { throw OAuthError.signature }
        guard let iss = jwt.stringClaim("iss"), iss == credentials.serviceAccountEmail else {
            throw OAuthError("invalid_grant", "Invalid grant: account not found")
        }
        do {
            try jwt.verifySignature(with: credentials.serviceAccountPublicKey)
        } catch {
            throw OAuthError.signature
        }
        let audiences: [String]
        switch jwt.claims["aud"] {
        case .string(let s)?: audiences = [s]
        case .array(let items)?: audiences = items.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(where: { Self.isAcceptedAudience($0, request: request) }) else {
            throw OAuthError(
                "invalid_grant",
                "Invalid JWT: Failed audience check. The right audience is \(Self.googleTokenURL) "
                    + "(or this token endpoint's own URL).")
        }
        guard let iat = jwt.numericDate("iat"), let exp = jwt.numericDate("exp") else { throw OAuthError.timeframe }
        let now = Double(nowMs) / 1000
        guard exp > iat, exp - iat <= Self.maxAssertionLifetime, exp > now, iat <= now + 300 else {
            throw OAuthError.timeframe
        }
        guard let scope = jwt.stringClaim("scope"), !scope.isEmpty else {
            throw OAuthError("invalid_scope", "Empty or missing scope not allowed.")
        }
        let scopes = Self.scopes(scope)
        // Google issues a token for any scope it knows; whether the scope lets FCM send is FCM's to say.
        guard !scopes.isEmpty, scopes.allSatisfy(Self.isGoogleScope) else {
            throw OAuthError("invalid_scope", "Invalid OAuth scope or ID token audience provided.")
        }
        return (iss, scope)
    }

    /// The scopes of a space-separated `scope` value.
    public static func scopes(_ scope: String) -> Set<String> {
        Set(scope.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
    }

    /// Whether a token with `scope` may send FCM messages (`firebase.messaging` or `cloud-platform`).
    public static func allowsFCM(scope: String) -> Bool { !scopes(scope).isDisjoint(with: fcmScopes) }

    /// A Google API scope (`https://www.googleapis.com/auth/…`) or an OpenID Connect one.
    static func isGoogleScope(_ scope: String) -> Bool {
        let prefix = "https://www.googleapis.com/auth/"
        return scope.hasPrefix(prefix) && scope.count > prefix.count || ["openid", "email", "profile"].contains(scope)
    }

    /// Google's token URL (or an older name of it), or this endpoint's own URL as `request` reached it:
    /// `https://` + its authority + a token path.
    static func isAcceptedAudience(_ audience: String, request: HTTPRequest) -> Bool {
        if googleAudiences.contains(audience) { return true }
        guard let authority = request.authorityOrHost, audience.hasPrefix("https://") else { return false }
        let rest = audience.dropFirst("https://".count)
        guard let slash = rest.firstIndex(of: "/") else { return false }
        return rest[..<slash].lowercased() == authority.lowercased() && paths.contains(String(rest[slash...]))
    }
}
