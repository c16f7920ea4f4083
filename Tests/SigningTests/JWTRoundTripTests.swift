import JSON
import Signing
import TestSupport
import Testing

@Suite struct JWTRoundTripTests {
    static let p256 = try! PrivateKey.generateP256()
    private static let generatedRSA = try! PrivateKey.generateRSA()
    /// The RSA key, generated once off the cooperative pool (that takes a while).
    static func rsa() async -> PrivateKey { await offPool { generatedRSA } }
    let claims: JSONValue = ["iss": "ABCDE12345", "iat": 1_700_000_000]

    @Test func es256SignVerify() throws {
        let token = try JWT.sign(header: ["kid": "KEY1234567"], claims: claims, key: Self.p256)
        let jwt = try JWT.decode(token)
        #expect(jwt.algorithm == "ES256")
        #expect(jwt.keyID == "KEY1234567")
        #expect(jwt.header["typ"] == "JWT")
        #expect(jwt.signature.count == 64)
        #expect(jwt.claims == claims)
        try jwt.verifySignature(with: Self.p256.publicKey())
    }

    @Test func rs256SignVerify() async throws {
        let rsa = await Self.rsa()
        let token = try JWT.sign(header: [:], claims: claims, key: rsa)
        let jwt = try JWT.decode(token)
        #expect(jwt.algorithm == "RS256")
        #expect(jwt.signature.count == 256)
        try jwt.verifySignature(with: rsa.publicKey())
    }

    @Test func hs256SignVerify() throws {
        let secret = Array("s3cret".utf8)
        let jwt = try JWT.decode(JWT.sign(header: [:], claims: claims, hmacSecret: secret))
        #expect(jwt.algorithm == "HS256")
        try jwt.verifySignature(hmacSecret: secret)
        let error = try #require(throws: SigningError.self) { try jwt.verifySignature(hmacSecret: Array("other".utf8)) }
        #expect(error.code == .badSignature)
    }

    @Test func existingAlgAndTypAreKept() throws {
        let jwt = try JWT.decode(
            JWT.sign(header: ["typ": "at+jwt", "alg": "ES256"], claims: claims, key: Self.p256))
        #expect(jwt.header == ["typ": "at+jwt", "alg": "ES256"])
    }

    @Test func signingInputIsWhatWasSigned() throws {
        let token = try JWT.sign(header: [:], claims: claims, key: Self.p256)
        let jwt = try JWT.decode(token)
        let parts = token.split(separator: ".")
        #expect(jwt.signingInput == Array((parts[0] + "." + parts[1]).utf8))
        #expect(try Self.p256.publicKey().verify(signature: jwt.signature, message: jwt.signingInput))
    }

    /// Replaces part `index` of a compact token.
    func tampered(_ token: String, part index: Int, with text: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = text
        return parts.joined(separator: ".")
    }

    @Test(arguments: [PrivateKey.Kind.p256, .rsa])
    func tamperingFailsWithBadSignature(kind: PrivateKey.Kind) async throws {
        let rsa = await Self.rsa()
        let key = kind == .p256 ? Self.p256 : rsa
        let publicKey = try key.publicKey()
        let token = try JWT.sign(header: [:], claims: claims, key: key)
        let alg = kind == .p256 ? "ES256" : "RS256"
        let variants = [
            tampered(token, part: 0, with: Base64URL.encode(Array(#"{"alg":"\#(alg)","typ":"JWT","x":1}"#.utf8))),
            tampered(token, part: 1, with: Base64URL.encode(Array(#"{"iss":"ABCDE12345","iat":1700000001}"#.utf8))),
            {
                var sig = Base64URL.decode(String(token.split(separator: ".")[2]))!
                sig[sig.count - 1] ^= 0x80
                return tampered(token, part: 2, with: Base64URL.encode(sig))
            }(),
        ]
        for variant in variants {
            let jwt = try JWT.decode(variant)
            let error = try #require(throws: SigningError.self) { try jwt.verifySignature(with: publicKey) }
            #expect(error.code == .badSignature, "\(error)")
        }
    }

    @Test func algorithmMismatch() async throws {
        let rsa = await Self.rsa()
        // An ES256 token checked against an RSA key, and vice versa.
        let es = try JWT.decode(JWT.sign(header: [:], claims: claims, key: Self.p256))
        let rs = try JWT.decode(JWT.sign(header: [:], claims: claims, key: rsa))
        let e1 = try #require(throws: SigningError.self) { try es.verifySignature(with: rsa.publicKey()) }
        #expect(e1.code == .badAlgorithm)
        #expect(e1.message.contains("ES256") && e1.message.contains("RS256"))
        let e2 = try #require(throws: SigningError.self) { try rs.verifySignature(with: Self.p256.publicKey()) }
        #expect(e2.code == .badAlgorithm)
        // An HS256 token against a public key, and an ES256 token against an HMAC secret.
        let hs = try JWT.decode(JWT.sign(header: [:], claims: claims, hmacSecret: [1, 2, 3]))
        let e3 = try #require(throws: SigningError.self) { try hs.verifySignature(with: Self.p256.publicKey()) }
        #expect(e3.code == .badAlgorithm)
        let e4 = try #require(throws: SigningError.self) { try es.verifySignature(hmacSecret: [1, 2, 3]) }
        #expect(e4.code == .badAlgorithm)
        // "none" and a missing alg.
        let none = try JWT.decode(
            tampered(es.serializedForTest(), part: 0, with: Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))))
        #expect(throws: SigningError.self) { try none.verifySignature(with: Self.p256.publicKey()) }
    }

    @Test func derSignatureIsRejectedForES256() throws {
        // Some backends send DER instead of raw r‖s; APNs rejects that, and so must we.
        let jwt = try JWT.decode(JWT.sign(header: [:], claims: claims, key: Self.p256))
        var der = jwt
        der.signature = try #require(ECDSASignature.derFromRaw(jwt.signature))
        let error = try #require(throws: SigningError.self) { try der.verifySignature(with: Self.p256.publicKey()) }
        #expect(error.code == .badSignature)
        #expect(error.message.contains("64"))
    }

    @Test func numericDateAcceptsIntFloatAndString() throws {
        let secret: [UInt8] = [7]
        func date(_ iat: JSONValue) throws -> Double? {
            try JWT.decode(JWT.sign(header: [:], claims: ["iat": iat], hmacSecret: secret)).numericDate("iat")
        }
        #expect(try date(.number("1700000000")) == 1_700_000_000)
        #expect(try date(.number("1700000000.25")) == 1_700_000_000.25)
        #expect(try date(.number("1.7e9")) == 1_700_000_000)
        #expect(try date(.string("1700000000")) == 1_700_000_000)
        #expect(try date(.string("1700000000.5")) == 1_700_000_000.5)
        #expect(try date(.string("soon")) == nil)
        #expect(try date(.string("nan")) == nil)
        #expect(try date(.bool(true)) == nil)
        #expect(try date(.null) == nil)
        let jwt = try JWT.decode(JWT.sign(header: [:], claims: ["iss": "x"], hmacSecret: secret))
        #expect(jwt.numericDate("iat") == nil)
        #expect(jwt.stringClaim("iss") == "x")
        #expect(jwt.stringClaim("iat") == nil)
    }

    @Test func concurrentSignAndVerify() async throws {
        let publicKey = try Self.p256.publicKey()
        let claims = self.claims
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        let token = try JWT.sign(header: [:], claims: claims, key: Self.p256)
                        try JWT.decode(token).verifySignature(with: publicKey)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

extension JWT {
    /// Re-assembles the compact form from the decoded parts.
    func serializedForTest() -> String {
        String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
    }
}

@Suite struct JWTHeaderTests {
    @Test func algComesFirstAndHeaderIsCompact() throws {
        let key = try PrivateKey.generateP256()
        let token = try JWT.sign(header: ["kid": "K"], claims: ["a": 1], key: key)
        let header = String(decoding: Base64URL.decode(String(token.split(separator: ".")[0]))!, as: UTF8.self)
        #expect(header == #"{"alg":"ES256","kid":"K","typ":"JWT"}"#)
    }
}
