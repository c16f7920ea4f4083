import HTTP
import JSON
import PushMocks
import Signing
import TestSupport
import Testing

@Suite struct APNsProviderTokenTests {
    let f = MockFixture()
    var apns: APNsMock { f.mocks.apnsProduction }

    func send(jwt: String?, connection: UInt64 = 1, version: HTTPVersion = .http2) async -> HTTPResponse {
        await apns.handle(
            f.apnsRequest(
                headers: [("authorization", jwt.map { "bearer \($0)" })], connectionID: connection, version: version))
    }

    var keyID: String { f.keys.apnsKey.keyID }
    var teamID: String { f.keys.apnsKey.teamID }
    var now: Int64 { Int64(f.nowSeconds) }

    func expect(
        _ response: HTTPResponse, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.apnsReason == reason, sourceLocation: sourceLocation)
    }

    @Test func missingAuthorizationIsMissingProviderToken() async {
        expect(await send(jwt: nil), 403, "MissingProviderToken")
    }

    @Test func nonBearerAuthorizationIsInvalid() async {
        let response = await apns.handle(f.apnsRequest(headers: [("authorization", "Basic abc")]))
        expect(response, 403, "InvalidProviderToken")
    }

    @Test func garbageTokenIsInvalid() async {
        expect(await send(jwt: "not.a.jwt"), 403, "InvalidProviderToken")
        expect(await send(jwt: "abc"), 403, "InvalidProviderToken")
    }

    @Test func otherAlgorithmIsInvalid() async {
        let hs = JWT.sign(
            header: ["alg": "HS256", "kid": .string(keyID)], claims: ["iss": .string(teamID), "iat": .int(now)],
            hmacSecret: [1, 2, 3])
        expect(await send(jwt: hs), 403, "InvalidProviderToken")
        let es384 = f.providerToken(
            header: ["alg": "ES384", "kid": .string(keyID)], claims: ["iss": .string(teamID), "iat": .int(now)])
        expect(await send(jwt: es384), 403, "InvalidProviderToken")
    }

    @Test func unknownKeyIDIsInvalid() async {
        let jwt = f.providerToken(
            header: ["alg": "ES256", "kid": "ZZZZZZZZZZ"], claims: ["iss": .string(teamID), "iat": .int(now)])
        expect(await send(jwt: jwt), 403, "InvalidProviderToken")
    }

    @Test func wrongIssuerIsInvalid() async {
        let jwt = f.providerToken(
            header: ["alg": "ES256", "kid": .string(keyID)], claims: ["iss": "OTHERTEAM1", "iat": .int(now)])
        expect(await send(jwt: jwt), 403, "InvalidProviderToken")
    }

    @Test func badSignatureIsInvalid() async throws {
        let other = try APNsSigningKey.generate(teamID: teamID, keyID: keyID)
        expect(await send(jwt: try other.providerToken(issuedAt: f.nowSeconds)), 403, "InvalidProviderToken")
        var tampered = Array(f.providerToken().utf8)
        tampered[tampered.count - 5] =
            tampered[tampered.count - 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        expect(await send(jwt: String(decoding: tampered, as: UTF8.self)), 403, "InvalidProviderToken")
    }

    @Test func missingIatIsInvalid() async {
        let jwt = f.providerToken(header: ["alg": "ES256", "kid": .string(keyID)], claims: ["iss": .string(teamID)])
        expect(await send(jwt: jwt), 403, "InvalidProviderToken")
    }

    @Test func futureIatIsInvalid() async {
        expect(await send(jwt: f.providerToken(issuedAt: f.nowSeconds + 3600)), 403, "InvalidProviderToken")
    }

    @Test(arguments: ["int", "float", "string", "string-float"])
    func acceptsIatInEveryShape(shape: String) async {
        let iat: JSONValue
        switch shape {
        case "int": iat = .int(now)
        case "float": iat = .number("\(now).25")
        case "string": iat = .string(String(now))
        default: iat = .string("\(now).5")
        }
        let jwt = f.providerToken(
            header: ["alg": "ES256", "kid": .string(keyID)], claims: ["iss": .string(teamID), "iat": iat])
        #expect(await send(jwt: jwt).status == 200)
    }

    @Test func tokenOlderThanAnHourIsExpired() async {
        expect(await send(jwt: f.providerToken(issuedAt: f.nowSeconds - 3601)), 403, "ExpiredProviderToken")
        #expect(await send(jwt: f.providerToken(issuedAt: f.nowSeconds - 3500)).status == 200)
    }

    @Test func cachedTokenExpiresAfterAnHour() async {
        let jwt = f.providerToken()
        #expect(await send(jwt: jwt).status == 200)
        f.clock.advance(seconds: 3599)
        #expect(await send(jwt: jwt).status == 200)
        f.clock.advance(seconds: 2)
        expect(await send(jwt: jwt), 403, "ExpiredProviderToken")
    }

    @Test func verifiedTokensAreCached() async {
        let jwt = f.providerToken()
        for _ in 0..<5 { #expect(await send(jwt: jwt).status == 200) }
        #expect(apns.providerTokenVerifications == 1)
        #expect(apns.cachedProviderTokens == 1)
    }

    @Test func newTokenWithin20MinutesIsTooManyUpdates() async {
        let first = f.providerToken()
        #expect(await send(jwt: first).status == 200)
        f.clock.advance(seconds: 10 * 60)
        let second = f.providerToken()
        expect(await send(jwt: second), 429, "TooManyProviderTokenUpdates")
        // Reusing the accepted token is fine.
        #expect(await send(jwt: first).status == 200)
        f.clock.advance(seconds: 10 * 60)
        #expect(await send(jwt: second).status == 200)
        // The 20 minutes run from the last *new* token.
        f.clock.advance(seconds: 60)
        expect(await send(jwt: f.providerToken()), 429, "TooManyProviderTokenUpdates")
    }

    @Test func bookIsAPureStateMachine() {
        var book = ProviderTokenBook()
        let t0: Int64 = 1_000_000_000
        let a = VerifiedProviderToken(keyID: "K", teamID: "T", issuedAt: Double(t0) / 1000)
        #expect(book.check(token: "a", connection: 1, nowMs: t0) == nil)
        #expect(book.admit(token: "a", verified: a, connection: 1, nowMs: t0) == .accepted(a, new: true))
        #expect(book.check(token: "a", connection: 1, nowMs: t0 + 1000) == .accepted(a, new: false))
        let b = VerifiedProviderToken(keyID: "K", teamID: "T", issuedAt: Double(t0 + 60_000) / 1000)
        #expect(book.admit(token: "b", verified: b, connection: 1, nowMs: t0 + 60_000) == .tooManyUpdates)
        // Another connection (a pool, a reconnect, another process) may start with its own token at once.
        #expect(book.check(token: "b", connection: 2, nowMs: t0 + 60_000) == .accepted(b, new: true))
        let other = VerifiedProviderToken(keyID: "OTHER", teamID: "T", issuedAt: Double(t0 + 60_000) / 1000)
        #expect(book.admit(token: "c", verified: other, connection: 1, nowMs: t0 + 60_000) == .tooManyUpdates)
        // The same claims re-signed (another token string) are no update.
        #expect(book.admit(token: "a2", verified: a, connection: 1, nowMs: t0 + 120_000) == .accepted(a, new: false))
        #expect(book.check(token: "b", connection: 1, nowMs: t0 + 1_200_000) == .accepted(b, new: true))
        #expect(book.check(token: "a", connection: 1, nowMs: t0 + 1_260_000) == .tooManyUpdates)
        #expect(book.check(token: "a", connection: 3, nowMs: t0 + 3_600_001) == .expired)
        #expect(book.connectionCount == 2)
    }

    @Test func connectionsThatWentAwayArePrunedNotLiveOnes() {
        var book = ProviderTokenBook()
        let t0: Int64 = 1_000_000_000
        let token = VerifiedProviderToken(keyID: "K", teamID: "T", issuedAt: Double(t0) / 1000)
        _ = book.admit(token: "t", verified: token, connection: 0, nowMs: t0)
        for id in UInt64(1)..<UInt64(ProviderTokenBook.connectionLimit) {
            #expect(book.check(token: "t", connection: id, nowMs: t0) == .accepted(token, new: true))
        }
        #expect(book.connectionCount == ProviderTokenBook.connectionLimit)
        // Connection 7 stays in use; the others go quiet for over an hour.
        let later = t0 + ProviderTokenBook.maxAgeMs + 60_000
        let fresh = VerifiedProviderToken(keyID: "K", teamID: "T", issuedAt: Double(later) / 1000)
        #expect(
            book.admit(token: "f", verified: fresh, connection: 7, nowMs: later - 30_000) == .accepted(fresh, new: true)
        )
        #expect(book.check(token: "f", connection: 100_000, nowMs: later) == .accepted(fresh, new: true))
        #expect(book.connectionCount == 2)
        // Connection 7 is still held to its 20 minutes.
        let other = VerifiedProviderToken(keyID: "K", teamID: "T", issuedAt: Double(later) / 1000 + 1)
        #expect(book.admit(token: "o", verified: other, connection: 7, nowMs: later + 1000) == .tooManyUpdates)
    }

    // MARK: Counted per connection

    @Test func aPoolOfConnectionsEachSigningItsOwnTokenIsAccepted() async {
        // One common Python client opens ten connections, each signing its own token moments apart.
        for connection in UInt64(100)..<110 {
            let jwt = f.providerToken(issuedAt: f.nowSeconds + Double(connection - 100) * 0.1)
            let response = await send(jwt: jwt, connection: connection)
            #expect(response.status == 200, "connection \(connection): \(response.apnsReason ?? "")")
            f.clock.advance(seconds: 1)
        }
        #expect(apns.providerTokenVerifications == 10)
    }

    @Test func aReconnectWithANewTokenIsAccepted() async {
        #expect(await send(jwt: f.providerToken(), connection: 20).status == 200)
        // After a GOAWAY or a reset the client connects again and signs afresh.
        f.clock.advance(seconds: 30)
        #expect(await send(jwt: f.providerToken(), connection: 21).status == 200)
        f.clock.advance(seconds: 30)
        // Still one connection changing its own token too soon is refused.
        expect(await send(jwt: f.providerToken(), connection: 21), 429, "TooManyProviderTokenUpdates")
    }

    @Test func reSigningTheSameClaimsIsNoUpdate() async {
        let iat = f.nowSeconds
        let first = f.providerToken(issuedAt: iat)
        #expect(await send(jwt: first, connection: 30).status == 200)
        f.clock.advance(seconds: 60)
        let again = f.providerToken(issuedAt: iat)
        #expect(again != first)  // ES256 signatures differ each time
        #expect(await send(jwt: again, connection: 30).status == 200)
        #expect(await send(jwt: first, connection: 30).status == 200)
    }

    @Test func aConnectionMayChangeItsTokenAfterTwentyMinutes() async {
        #expect(await send(jwt: f.providerToken(), connection: 40).status == 200)
        f.clock.advance(seconds: 20 * 60)
        #expect(await send(jwt: f.providerToken(), connection: 40).status == 200)
        f.clock.advance(seconds: 19 * 60)
        expect(await send(jwt: f.providerToken(), connection: 40), 429, "TooManyProviderTokenUpdates")
    }

    // MARK: One stream until authenticated

    @Test func firstValidTokenOnAConnectionRaisesStreamLimit() async {
        let jwt = f.providerToken()
        let first = await send(jwt: jwt, connection: 7)
        #expect(first.directive == .setMaxConcurrentStreams(1000))
        let second = await send(jwt: jwt, connection: 7)
        #expect(second.directive == .none)
        let other = await send(jwt: jwt, connection: 8)
        #expect(other.directive == .setMaxConcurrentStreams(1000))
    }

    @Test func invalidTokenDoesNotRaiseStreamLimit() async {
        let bad = await send(jwt: "garbage", connection: 9)
        #expect(bad.directive == .none)
        let missing = await send(jwt: nil, connection: 9)
        #expect(missing.directive == .none)
        #expect(await send(jwt: f.providerToken(), connection: 9).directive == .setMaxConcurrentStreams(1000))
    }

    @Test func validTokenRaisesLimitEvenWhenThePushIsRejected() async {
        let response = await apns.handle(f.apnsRequest(headers: [("apns-topic", nil)], connectionID: 11))
        #expect(response.status == 400)
        #expect(response.directive == .setMaxConcurrentStreams(1000))
    }

    @Test func anHTTP1RequestIsDroppedNeverDelivered() async {
        // APNs speaks HTTP/2 only: no answer, the connection dropped, even with a valid token.
        let response = await send(jwt: f.providerToken(), connection: 12, version: .http1_1)
        #expect(response.directive == .resetWithoutResponse)
        let capture = f.mocks.log.captures().last
        #expect(capture?.outcome == .rejected(reason: APNsMock.http1RefusedReason))
        #expect(capture?.connectionID == 12)
        #expect(apns.providerTokenVerifications == 0)
    }

    @Test func anHTTP1RequestConsumesNoFaultPlan() async throws {
        try f.mocks.faults.install(FaultPlan(mock: .apns, times: 1, respond: FaultResponse(reason: "Shutdown")))
        #expect(
            await send(jwt: f.providerToken(), connection: 13, version: .http1_1).directive == .resetWithoutResponse)
        #expect(await send(jwt: f.providerToken(), connection: 14).apnsReason == "Shutdown")
    }
}
