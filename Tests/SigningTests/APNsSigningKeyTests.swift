import Foundation
import JSON
import Signing
import TestSupport
import Testing

@Suite struct APNsSigningKeyTests {
    @Test func generatesAppleShapedIDs() throws {
        let key = try APNsSigningKey.generate()
        #expect(APNsSigningKey.isAppleID(key.keyID))
        #expect(APNsSigningKey.isAppleID(key.teamID))
        #expect(key.privateKey.kind == .p256)
        let given = try APNsSigningKey.generate(teamID: "TEAM123456", keyID: "KEY0000001")
        #expect(given.teamID == "TEAM123456" && given.keyID == "KEY0000001")
        #expect(throws: SigningError.self) { try APNsSigningKey.generate(teamID: "team123456") }
        #expect(throws: SigningError.self) { try APNsSigningKey.generate(keyID: "SHORT") }
    }

    @Test func p8LooksLikeApples() throws {
        let key = try APNsSigningKey.generate()
        let pem = try key.p8PEM()
        let lines = pem.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6)
        #expect(lines.first == "-----BEGIN PRIVATE KEY-----")
        #expect(lines.last == "-----END PRIVATE KEY-----")
        #expect(lines[1...3].allSatisfy { $0.count == 64 } && lines[4].count == 8)
        // Apple's files all begin with the same 150-byte PKCS#8 prefix (curve parameters inside the SEC1 key).
        #expect(lines[1].hasPrefix("MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg"))
        let again = try PrivateKey(pem: pem)
        #expect(try again.publicKey().pem() == key.privateKey.publicKey().pem())
    }

    @Test func p8FileIsAcceptedByOpenSSL() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let key = try APNsSigningKey.generate()
        let path = try key.writeP8(toDirectory: dir.path)
        #expect(path == dir.path + "/AuthKey_\(key.keyID).p8")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let file = "AuthKey_\(key.keyID).p8"
        let check = try await SigningTestTools.opensslAsync(["pkey", "-in", file, "-noout"], in: dir)
        #expect(check.status == 0, "\(check.stderr)")
        let text = try await SigningTestTools.opensslAsync(["pkey", "-in", file, "-noout", "-text"], in: dir)
        #expect(text.stdout.contains("ASN1 OID: prime256v1"), "\(text.stdout)")
        #expect(text.stdout.contains("NIST CURVE: P-256"))
        let pub = try await SigningTestTools.opensslAsync(["pkey", "-in", file, "-pubout"], in: dir)
        #expect(pub.stdout == (try key.privateKey.publicKey().pem()))
    }

    @Test func providerTokenIsWhatABackendSends() throws {
        let key = try APNsSigningKey.generate()
        let token = try key.providerToken(issuedAt: 1_700_000_000.9)
        let jwt = try JWT.decode(token)
        #expect(jwt.header == ["alg": "ES256", "kid": .string(key.keyID)])
        #expect(jwt.claims == ["iss": .string(key.teamID), "iat": 1_700_000_000])
        #expect(jwt.claims["iat"]?.isIntegerLiteral == true)
        let validator = JWTValidator(
            algorithms: [.es256], requiredClaims: ["iss", "iat"], maxAgeSeconds: 3600, now: { 1_700_000_100 })
        _ = try validator.validate(token, key: key.privateKey.publicKey())
    }

    /// The provider token's signature, checked by `openssl dgst` with the public key read from the .p8 file.
    @Test func providerTokenVerifiesWithOpenSSL() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let key = try APNsSigningKey.generate()
        let file = (try key.writeP8(toDirectory: dir.path) as NSString).lastPathComponent
        let jwt = try JWT.decode(key.providerToken(issuedAt: 1_700_000_000))
        try Data(jwt.signingInput).write(to: URL(fileURLWithPath: dir.file("input")))
        try Data(#require(ECDSASignature.derFromRaw(jwt.signature))).write(to: URL(fileURLWithPath: dir.file("sig")))
        let r = try await SigningTestTools.shellAsync(
            "openssl pkey -in \(file) -pubout -out pub.pem && openssl dgst -sha256 -verify pub.pem -signature sig input",
            in: dir)
        #expect(r.status == 0 && r.stdout.contains("Verified OK"), "\(r.stdout) \(r.stderr)")
    }
}
