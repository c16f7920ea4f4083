import HTTP
import JSON
import PushMocks
import Signing
import TestSupport
import Testing

@Suite struct OAuthMockTests {
    let f = MockFixture()
    var oauth: OAuthMock { f.mocks.oauth }
    var keyID: String { f.keys.serviceAccount.privateKeyID }

    func expectError(
        _ response: HTTPResponse, _ error: String, status: Int = 400, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.jsonBody?["error"]?.stringValue == error, sourceLocation: sourceLocation)
        #expect(response.jsonBody?["error_description"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
    }

    @Test func issuesAccessTokenForValidAssertion() async throws {
        let response = await oauth.handle(f.oauthRequest(assertion: f.assertion()))
        #expect(response.status == 200)
        let body = try #require(response.jsonBody)
        let token = try #require(body["access_token"]?.stringValue)
        #expect(body["expires_in"] == 3599)
        #expect(body["token_type"] == "Bearer")
        guard case .valid(let grant) = f.mocks.tokens.lookup(token, nowMs: f.clock.nowMs) else {
            Issue.record("token not remembered")
            return
        }
        #expect(grant.clientEmail == f.keys.serviceAccount.clientEmail)
        #expect(grant.expiresAtMs == f.clock.nowMs + 3_599_000)
        let capture = try #require(f.mocks.log.captures().last)
        #expect(capture.mock == .oauth && capture.outcome == .accepted)
        #expect(capture.oauthClient == f.keys.serviceAccount.clientEmail)
    }

    @Test func acceptsJSONBody() async {
        let body: JSONValue = [
            "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": .string(f.assertion()),
        ]
        let request = HTTPRequest(
            method: "POST", target: "/token", headers: ["content-type": "application/json"], body: body.bytes(),
            arrivalMs: f.clock.nowMs)
        #expect(await oauth.handle(request).status == 200)
    }

    @Test func acceptsCloudPlatformScope() async {
        let scope =
            "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/firebase.database "
            + "https://www.googleapis.com/auth/userinfo.email"
        #expect(await oauth.handle(f.oauthRequest(assertion: f.assertion(scope: scope))).status == 200)
    }

    /// An assertion with `aud` set to `audience`.
    func assertion(audience: String) -> String {
        f.assertion(
            header: ["alg": "RS256", "kid": .string(keyID)],
            claims: f.assertionClaims().setting("aud", to: .string(audience)))
    }

    @Test func acceptsGooglesTokenURLWhereverTheRequestWent() async {
        // SDKs put Google's URL in `aud` even when their token_uri names the mock.
        let request = f.oauthRequest(
            assertion: assertion(audience: OAuthMock.googleTokenURL), authority: "127.0.0.1:9999")
        #expect(await oauth.handle(request).status == 200)
        let legacy = assertion(audience: "https://www.googleapis.com/oauth2/v4/token")
        #expect(await oauth.handle(f.oauthRequest(assertion: legacy)).status == 200)
    }

    @Test func acceptsTheMocksOwnURLAsAudience() async {
        let own = f.oauthRequest(
            assertion: assertion(audience: "https://127.0.0.1:9999/token"), authority: "127.0.0.1:9999")
        #expect(await oauth.handle(own).status == 200)
        let otherPath = f.oauthRequest(
            assertion: assertion(audience: "https://127.0.0.1:9999/oauth2/v4/token"), path: "/oauth2/v4/token",
            authority: "127.0.0.1:9999")
        #expect(await oauth.handle(otherPath).status == 200)
    }

    @Test(arguments: [
        "https://127.0.0.1:9998/token", "https://example.com/token", "https://oauth2.googleapis.com/other",
        "http://127.0.0.1:9999/token", "https://127.0.0.1:9999/token/extra", "oauth2.googleapis.com",
    ])
    func refusesAnyOtherAudience(audience: String) async {
        let request = f.oauthRequest(assertion: assertion(audience: audience), authority: "127.0.0.1:9999")
        let response = await oauth.handle(request)
        expectError(response, "invalid_grant")
        #expect(response.jsonBody?["error_description"]?.stringValue?.contains("audience") == true)
        #expect(f.mocks.tokens.all.isEmpty)
    }

    @Test func aScopeUnrelatedToFCMGetsATokenThatFCMRefuses() async throws {
        let response = await oauth.handle(
            f.oauthRequest(assertion: f.assertion(scope: "https://www.googleapis.com/auth/userinfo.email")))
        #expect(response.status == 200)
        let token = try #require(response.jsonBody?["access_token"]?.stringValue)
        let send = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token))
        #expect(send.status == 403)
        #expect(send.googleStatus == "PERMISSION_DENIED")
        #expect(send.jsonBody?.value(atPath: "error.details.0.reason") == "ACCESS_TOKEN_SCOPE_INSUFFICIENT")
        #expect(f.mocks.log.captures(CaptureFilter(mock: .fcm)).last?.outcome.isAccepted == false)
    }

    @Test(arguments: [
        "https://www.googleapis.com/auth/firebase.messaging", "https://www.googleapis.com/auth/cloud-platform",
        "https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/cloud-platform",
    ])
    func fcmAcceptsATokenWithAnFCMScope(scope: String) async throws {
        let response = await oauth.handle(f.oauthRequest(assertion: f.assertion(scope: scope)))
        let token = try #require(response.jsonBody?["access_token"]?.stringValue)
        let send = await f.mocks.fcm.handle(f.fcmRequest(MockFixture.callxMessage(), accessToken: token))
        #expect(send.status == 200)
    }

    @Test func acceptsAssertionWithoutKid() async {
        let jwt = f.assertion(header: ["alg": "RS256"], claims: f.assertionClaims())
        #expect(await oauth.handle(f.oauthRequest(assertion: jwt)).status == 200)
    }

    @Test func alternativeTokenPaths() async {
        for path in ["/o/oauth2/token", "/oauth2/v4/token"] {
            #expect(await oauth.handle(f.oauthRequest(assertion: f.assertion(), path: path)).status == 200)
        }
        expectError(
            await oauth.handle(f.oauthRequest(assertion: f.assertion(), path: "/nope")), "not_found", status: 404)
    }

    @Test func missingGrantTypeIsInvalidRequest() async {
        expectError(await oauth.handle(f.oauthRequest(assertion: f.assertion(), grantType: nil)), "invalid_request")
    }

    @Test func otherGrantTypeIsUnsupported() async {
        let response = await oauth.handle(f.oauthRequest(assertion: f.assertion(), grantType: "client_credentials"))
        expectError(response, "unsupported_grant_type")
    }

    @Test func missingAssertionIsInvalidRequest() async {
        expectError(await oauth.handle(f.oauthRequest(assertion: nil)), "invalid_request")
    }

    @Test func getIsRejected() async {
        var request = f.oauthRequest(assertion: f.assertion())
        request.method = "GET"
        expectError(await oauth.handle(request), "invalid_request", status: 405)
    }

    @Test func malformedAssertionIsInvalidGrant() async {
        expectError(await oauth.handle(f.oauthRequest(assertion: "abc.def")), "invalid_grant")
    }

    @Test func wrongAlgorithmIsInvalidGrant() async throws {
        let p256 = try PrivateKey.generateP256()
        let es = try JWT.sign(header: ["kid": .string(keyID)], claims: f.assertionClaims(), key: p256)
        expectError(await oauth.handle(f.oauthRequest(assertion: es)), "invalid_grant")
        let hs = JWT.sign(header: ["kid": .string(keyID)], claims: f.assertionClaims(), hmacSecret: [1])
        expectError(await oauth.handle(f.oauthRequest(assertion: hs)), "invalid_grant")
    }

    @Test func wrongKidIsInvalidGrant() async {
        let jwt = f.assertion(header: ["alg": "RS256", "kid": "0000"], claims: f.assertionClaims())
        expectError(await oauth.handle(f.oauthRequest(assertion: jwt)), "invalid_grant")
    }

    @Test func wrongIssuerIsInvalidGrant() async {
        let claims = f.assertionClaims().setting("iss", to: "someone@else.iam.gserviceaccount.com")
        let jwt = f.assertion(header: ["alg": "RS256", "kid": .string(keyID)], claims: claims)
        expectError(await oauth.handle(f.oauthRequest(assertion: jwt)), "invalid_grant")
    }

    @Test func badSignatureIsInvalidGrant() async throws {
        let other = try PrivateKey.generateRSA()
        let jwt = try JWT.sign(
            header: ["alg": "RS256", "kid": .string(keyID)], claims: f.assertionClaims(), key: other)
        expectError(await oauth.handle(f.oauthRequest(assertion: jwt)), "invalid_grant")
    }

    @Test func scopeMustBeGoogles() async {
        let response = await oauth.handle(f.oauthRequest(assertion: f.assertion(scope: "calls.anything")))
        expectError(response, "invalid_scope")
        let claims: JSONValue = .object(f.assertionClaims().objectValue!.filter { $0.key != "scope" })
        let jwt = f.assertion(header: ["alg": "RS256", "kid": .string(keyID)], claims: claims)
        expectError(await oauth.handle(f.oauthRequest(assertion: jwt)), "invalid_scope")
    }

    @Test func audienceMustBePresent() async {
        let claims: JSONValue = .object(f.assertionClaims().objectValue!.filter { $0.key != "aud" })
        let jwt = f.assertion(header: ["alg": "RS256", "kid": .string(keyID)], claims: claims)
        expectError(await oauth.handle(f.oauthRequest(assertion: jwt)), "invalid_grant")
    }

    @Test func lifetimeAtMostAnHour() async {
        #expect(await oauth.handle(f.oauthRequest(assertion: f.assertion(lifetime: 3600))).status == 200)
        expectError(await oauth.handle(f.oauthRequest(assertion: f.assertion(lifetime: 3601))), "invalid_grant")
    }

    @Test func expiredAssertionIsInvalidGrant() async {
        let old = f.nowSeconds - 4000
        expectError(await oauth.handle(f.oauthRequest(assertion: f.assertion(issuedAt: old))), "invalid_grant")
    }

    @Test func missingIatOrExpIsInvalidGrant() async {
        for drop in ["iat", "exp"] {
            let claims: JSONValue = .object(f.assertionClaims().objectValue!.filter { $0.key != drop })
            let jwt = f.assertion(header: ["alg": "RS256", "kid": .string(keyID)], claims: claims)
            expectError(await oauth.handle(f.oauthRequest(assertion: jwt)), "invalid_grant")
        }
    }

    @Test func issuedTokensExpire() async {
        let token = await f.accessToken()
        f.clock.advance(seconds: 3598)
        guard case .valid = f.mocks.tokens.lookup(token, nowMs: f.clock.nowMs) else {
            Issue.record("expired too early")
            return
        }
        f.clock.advance(seconds: 2)
        guard case .expired = f.mocks.tokens.lookup(token, nowMs: f.clock.nowMs) else {
            Issue.record("should have expired")
            return
        }
    }
}
