import JSON
import Signing
import Testing

@Suite struct JWTValidatorTests {
    static let key = try! PrivateKey.generateP256()
    static let now: Double = 1_700_000_000

    func validator(
        algorithms: Set<JWTAlgorithm> = [.es256], required: [String] = ["iss", "iat"], maxAge: Double? = 3600
    ) -> JWTValidator {
        JWTValidator(
            algorithms: algorithms, requiredClaims: required, leewaySeconds: 60, maxAgeSeconds: maxAge,
            now: { JWTValidatorTests.now })
    }

    func token(_ claims: JSONValue) throws -> String {
        try JWT.sign(header: ["kid": "K"], claims: claims, key: Self.key)
    }

    func failure(_ v: JWTValidator, _ token: String) throws -> SigningError {
        let publicKey = try Self.key.publicKey()
        return try #require(throws: SigningError.self) { try v.validate(token, key: publicKey) }
    }

    @Test func acceptsAValidToken() throws {
        let jwt = try validator().validate(
            token(["iss": "T", "iat": .double(Self.now - 10)]), key: Self.key.publicKey())
        #expect(jwt.stringClaim("iss") == "T")
        // iat as a float and as a string, within leeway in the future.
        _ = try validator().validate(token(["iss": "T", "iat": .number("1700000030.5")]), key: Self.key.publicKey())
        _ = try validator().validate(token(["iss": "T", "iat": .string("1700000000")]), key: Self.key.publicKey())
    }

    @Test func expired() throws {
        let e = try failure(
            validator(), token(["iss": "T", "iat": .double(Self.now - 100), "exp": .double(Self.now - 61)]))
        #expect(e.code == .expired)
        #expect(e.message.contains("exp"))
        // Within leeway is fine.
        _ = try validator().validate(
            token(["iss": "T", "iat": .double(Self.now - 100), "exp": .double(Self.now - 30)]),
            key: Self.key.publicKey())
    }

    @Test func futureIssuedAt() throws {
        let e = try failure(validator(), token(["iss": "T", "iat": .double(Self.now + 120)]))
        #expect(e.code == .notYetValid)
        #expect(e.message.contains("iat") && e.message.contains("future"))
    }

    @Test func notBefore() throws {
        let e = try failure(validator(), token(["iss": "T", "iat": .double(Self.now), "nbf": .double(Self.now + 600)]))
        #expect(e.code == .notYetValid)
        #expect(e.message.contains("nbf"))
    }

    @Test func tooOld() throws {
        let e = try failure(validator(), token(["iss": "T", "iat": .double(Self.now - 3601)]))
        #expect(e.code == .expired)
        #expect(e.message.contains("too old") && e.message.contains("3601"))
        // Without maxAge the same token is fine.
        _ = try validator(maxAge: nil).validate(
            token(["iss": "T", "iat": .double(Self.now - 3601)]), key: Self.key.publicKey())
    }

    @Test func missingClaim() throws {
        let e = try failure(validator(), token(["iat": .double(Self.now)]))
        #expect(e.code == .missingClaim)
        #expect(e.message.contains("\"iss\""))
        // maxAge needs iat even when it is not listed as required.
        let e2 = try failure(validator(required: []), token(["iss": "T"]))
        #expect(e2.code == .missingClaim)
        #expect(e2.message.contains("iat"))
    }

    @Test func nonNumericDate() throws {
        let e = try failure(validator(), token(["iss": "T", "iat": "yesterday"]))
        #expect(e.code == .badClaim)
        #expect(e.message.contains("iat"))
    }

    @Test func algorithmNotAllowed() throws {
        let e = try failure(validator(algorithms: [.rs256]), token(["iss": "T", "iat": .double(Self.now)]))
        #expect(e.code == .badAlgorithm)
        #expect(e.message.contains("ES256") && e.message.contains("RS256"))
        let hs = JWT.sign(header: [:], claims: ["iss": "T", "iat": .double(Self.now)], hmacSecret: [1])
        #expect(try failure(validator(), hs).code == .badAlgorithm)
    }

    @Test func badSignatureAndMalformed() throws {
        let good = try token(["iss": "T", "iat": .double(Self.now)])
        let other = try PrivateKey.generateP256()
        let forged = try JWT.sign(header: ["kid": "K"], claims: ["iss": "T", "iat": .double(Self.now)], key: other)
        #expect(try failure(validator(), forged).code == .badSignature)
        #expect(
            try failure(validator(), good.split(separator: ".").prefix(2).joined(separator: ".")).code == .malformed)
    }

    @Test func hmacValidation() throws {
        let v = JWTValidator(algorithms: [.hs256], requiredClaims: ["iat"], now: { JWTValidatorTests.now })
        let t = JWT.sign(header: [:], claims: ["iat": .double(Self.now)], hmacSecret: [9, 9])
        _ = try v.validate(t, hmacSecret: [9, 9])
        #expect(throws: SigningError.self) { try v.validate(t, hmacSecret: [9]) }
    }

    @Test func systemClockIsReasonable() {
        let t = JWTValidator.systemTime()
        #expect(t > 1_700_000_000 && t < 4_000_000_000)
    }
}
