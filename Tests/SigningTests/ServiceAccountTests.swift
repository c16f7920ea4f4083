import Foundation
import JSON
import Signing
import TestSupport
import Testing

@Suite struct ServiceAccountTests {
    private static let generated = try! ServiceAccount.generate(
        projectID: "ringcheck-demo", tokenURI: "https://127.0.0.1:8443/token")

    /// The account, generated once off the cooperative pool (an RSA key takes a while).
    static func account() async -> ServiceAccount { await offPool { generated } }

    @Test func generatedFieldsLookLikeGoogles() async throws {
        let a = await Self.account()
        #expect(a.clientEmail == "ringcheck@ringcheck-demo.iam.gserviceaccount.com")
        #expect(a.privateKeyID.count == 40 && a.privateKeyID.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(a.clientID.count == 21 && a.clientID.allSatisfy(\.isNumber))
        #expect(a.privateKey.kind == .rsa)
        let json = try JSONValue.parse(a.json())
        let keys = json.objectValue?.map(\.key)
        #expect(
            keys == [
                "type", "project_id", "private_key_id", "private_key", "client_email", "client_id", "auth_uri",
                "token_uri", "auth_provider_x509_cert_url", "client_x509_cert_url", "universe_domain",
            ])
        #expect(json["type"] == "service_account")
        #expect(json["token_uri"] == "https://127.0.0.1:8443/token")
        #expect(json["private_key"]?.stringValue?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
        #expect(
            json["client_x509_cert_url"]
                == "https://www.googleapis.com/robot/v1/metadata/x509/ringcheck%40ringcheck-demo.iam.gserviceaccount.com"
        )
    }

    @Test func jsonParsesBack() async throws {
        let account = await Self.account()
        let parsed = try ServiceAccount.parse(json: account.json())
        #expect(parsed.projectID == account.projectID)
        #expect(parsed.clientEmail == account.clientEmail)
        #expect(parsed.privateKeyID == account.privateKeyID)
        #expect(parsed.clientID == account.clientID)
        #expect(parsed.tokenURI == account.tokenURI)
        #expect(try parsed.privateKey.publicKey().pem() == account.privateKey.publicKey().pem())
    }

    @Test func jsonIsReadableByPython() async throws {
        let account = await Self.account()
        try #require(await processAvailable("python3"))
        let r = try await runProcess(
            "python3", ["-c", "import json,sys; d=json.load(sys.stdin); print(d['type'], d['client_email'])"],
            input: Array(account.json().utf8))
        #expect(r.stdout == "service_account \(account.clientEmail)\n", "\(r.stderr)")
    }

    @Test func assertionIsWhatAnSDKSends() async throws {
        let account = await Self.account()
        // Round trip through the JSON file, as a backend would.
        let loaded = try ServiceAccount.parse(json: account.json())
        let scope = "https://www.googleapis.com/auth/firebase.messaging"
        let token = try loaded.assertion(scope: scope, issuedAt: 1_700_000_000)
        let jwt = try JWT.decode(token)
        #expect(jwt.algorithm == "RS256")
        #expect(jwt.keyID == account.privateKeyID)
        #expect(jwt.header["typ"] == "JWT")
        #expect(jwt.stringClaim("iss") == account.clientEmail)
        #expect(jwt.stringClaim("scope") == scope)
        #expect(jwt.stringClaim("aud") == "https://oauth2.googleapis.com/token")
        #expect(jwt.claims["iat"] == 1_700_000_000 && jwt.claims["exp"] == 1_700_003_600)
        let validator = JWTValidator(
            algorithms: [.rs256], requiredClaims: ["iss", "scope", "aud", "iat", "exp"], now: { 1_700_000_010 })
        _ = try validator.validate(token, key: account.privateKey.publicKey())
    }

    @Test func assertionVerifiesWithOpenSSL() async throws {
        let account = await Self.account()
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let json = try JSONValue.parse(account.json())
        try dir.write("key.pem", json["private_key"]!.stringValue!)
        let jwt = try JWT.decode(account.assertion(scope: "s", issuedAt: 1_700_000_000))
        try Data(jwt.signingInput).write(to: URL(fileURLWithPath: dir.file("input")))
        try Data(jwt.signature).write(to: URL(fileURLWithPath: dir.file("sig")))
        let r = try await SigningTestTools.shellAsync(
            "openssl pkey -in key.pem -pubout -out pub.pem && openssl dgst -sha256 -verify pub.pem -signature sig input",
            in: dir)
        #expect(r.status == 0 && r.stdout.contains("Verified OK"), "\(r.stdout) \(r.stderr)")
    }

    func parseError(_ json: JSONValue) throws -> SigningError {
        try #require(throws: SigningError.self) { try ServiceAccount.parse(json: json.serialized()) }
    }

    @Test func parseErrorsNameTheField() async throws {
        let account = await Self.account()
        let good = try JSONValue.parse(account.json())
        var missing = good
        missing = .object(missing.objectValue!.filter { $0.key != "client_email" })
        let e1 = try parseError(missing)
        #expect(e1.code == .missingClaim && e1.message.contains("client_email"))
        let e2 = try parseError(good.setting("private_key", to: 5))
        #expect(e2.code == .badClaim && e2.message.contains("private_key") && e2.message.contains("number"))
        let e3 = try parseError(good.setting("type", to: "authorized_user"))
        #expect(e3.code == .badClaim && e3.message.contains("type"))
        let e4 = try parseError(
            good.setting("private_key", to: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
        #expect(e4.code == .badKey && e4.message.contains("private_key"))
        let e5 = try parseError(good.setting("private_key", to: .string(try PrivateKey.generateP256().pkcs8PEM())))
        #expect(e5.code == .badKey && e5.message.contains("RSA"))
        let e6 = try #require(throws: SigningError.self) { try ServiceAccount.parse(json: "{") }
        #expect(e6.code == .malformed)
        let e7 = try parseError(good.setting("project_id", to: ""))
        #expect(e7.code == .badClaim && e7.message.contains("project_id"))
    }
}
