import JSON

/// A Google service-account JSON key file, as downloaded from the Cloud console and read by Firebase
/// Admin SDKs and Google auth libraries.
public struct ServiceAccount: Sendable {
    /// `project_id`.
    public var projectID: String
    /// `client_email`, e.g. `ringcheck@<project>.iam.gserviceaccount.com`.
    public var clientEmail: String
    /// `private_key_id`: 40 lowercase hex characters; the `kid` of assertions.
    public var privateKeyID: String
    /// `client_id`: a 21-digit number as a string.
    public var clientID: String
    /// `token_uri`: where SDKs post their assertion for an access token.
    public var tokenURI: String
    /// The RSA private key (`private_key`).
    public var privateKey: PrivateKey

    /// The `aud` that SDKs put in assertions regardless of `token_uri`.
    public static let googleTokenAudience = "https://oauth2.googleapis.com/token"

    /// Creates a value from its parts.
    public init(
        projectID: String, clientEmail: String, privateKeyID: String, clientID: String, tokenURI: String,
        privateKey: PrivateKey
    ) {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKeyID = privateKeyID
        self.clientID = clientID
        self.tokenURI = tokenURI
        self.privateKey = privateKey
    }

    /// A new account for `projectID` with a fresh RSA-2048 key (or `key`), random IDs and
    /// `client_email` `ringcheck@<projectID>.iam.gserviceaccount.com`.
    public static func generate(projectID: String, tokenURI: String, key: PrivateKey? = nil) throws(SigningError)
        -> ServiceAccount
    {
        let digits = SecureRandom.bytes(21).enumerated().map { i, b in
            String(i == 0 ? 1 + Int(b) % 9 : Int(b) % 10)  // a leading zero would not look like Google's
        }
        let privateKey: PrivateKey
        if let key { privateKey = key } else { privateKey = try PrivateKey.generateRSA(bits: 2048) }
        return ServiceAccount(
            projectID: projectID, clientEmail: "ringcheck@\(projectID).iam.gserviceaccount.com",
            privateKeyID: SecureRandom.hex(20), clientID: digits.joined(), tokenURI: tokenURI, privateKey: privateKey)
    }

    /// Reads a service-account JSON file. Requires `"type": "service_account"`, `project_id`, `client_email`
    /// and an RSA `private_key`; `private_key_id` and `client_id` may be absent (empty), `token_uri`
    /// defaults to Google's. Errors name the missing or invalid field.
    public static func parse(json: String) throws(SigningError) -> ServiceAccount {
        let root: JSONValue
        do {
            root = try JSONValue.parse(json)
        } catch {
            throw SigningError(.malformed, "service-account file is not JSON: \(error)")
        }
        guard case .object = root else {
            throw SigningError(.malformed, "service-account file is a JSON \(root.typeName), not an object")
        }
        func field(_ name: String, required: Bool) throws(SigningError) -> String? {
            guard let value = root[name] else {
                if required { throw SigningError(.missingClaim, "service-account file has no \"\(name)\"") }
                return nil
            }
            guard let s = value.stringValue else {
                throw SigningError(.badClaim, "service-account field \"\(name)\" is a \(value.typeName), not a string")
            }
            if required && s.isEmpty { throw SigningError(.badClaim, "service-account field \"\(name)\" is empty") }
            return s
        }
        let type = try field("type", required: true)!
        guard type == "service_account" else {
            throw SigningError(.badClaim, "service-account field \"type\" is \"\(type)\", expected \"service_account\"")
        }
        let projectID = try field("project_id", required: true)!
        let clientEmail = try field("client_email", required: true)!
        let keyPEM = try field("private_key", required: true)!
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: keyPEM)
        } catch {
            throw SigningError(error.code, "service-account field \"private_key\": \(error.message)")
        }
        guard key.kind == .rsa else {
            throw SigningError(.badKey, "service-account field \"private_key\" is not an RSA key")
        }
        return ServiceAccount(
            projectID: projectID, clientEmail: clientEmail,
            privateKeyID: try field("private_key_id", required: false) ?? "",
            clientID: try field("client_id", required: false) ?? "",
            tokenURI: try field("token_uri", required: false) ?? googleTokenAudience, privateKey: key)
    }

    /// The JSON key file, with the same fields, order and layout as Google's.
    public func json() throws(SigningError) -> String {
        let value: JSONValue = [
            "type": "service_account",
            "project_id": .string(projectID),
            "private_key_id": .string(privateKeyID),
            "private_key": .string(try privateKey.pkcs8PEM()),
            "client_email": .string(clientEmail),
            "client_id": .string(clientID),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": .string(tokenURI),
            "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
            "client_x509_cert_url": .string(
                "https://www.googleapis.com/robot/v1/metadata/x509/" + Self.percentEncoded(clientEmail)),
            "universe_domain": "googleapis.com",
        ]
        return value.serialized(pretty: true) + "\n"
    }

    /// The signed assertion an SDK posts to `token_uri`: an RS256 JWT with header `kid` = `private_key_id`
    /// and claims `iss` = `client_email`, `scope`, `aud`, `iat` and `exp` = `iat + lifetime` (integers).
    public func assertion(
        scope: String, audience: String = "https://oauth2.googleapis.com/token", issuedAt: Double,
        lifetime: Double = 3600
    ) throws(SigningError) -> String {
        let iat = Int64(issuedAt.rounded(.down))
        var header: JSONValue = ["alg": "RS256", "typ": "JWT"]
        if !privateKeyID.isEmpty { header = header.setting("kid", to: .string(privateKeyID)) }
        let claims: JSONValue = [
            "iss": .string(clientEmail), "scope": .string(scope), "aud": .string(audience), "iat": .int(iat),
            "exp": .int(iat + Int64(lifetime.rounded(.down))),
        ]
        return try JWT.sign(header: header, claims: claims, key: privateKey)
    }

    /// `s` with everything but unreserved URL characters percent-encoded (`@` → `%40`).
    static func percentEncoded(_ s: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(b)
            default: out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
