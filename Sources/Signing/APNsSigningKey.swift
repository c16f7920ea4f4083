import COpenSSL
import JSON

/// What Apple gives a developer for token-based APNs authentication: a P-256 key in a `.p8` file,
/// its 10-character key ID, and the team ID.
public struct APNsSigningKey: Sendable {
    /// The key ID (`kid`), 10 characters `[A-Z0-9]`.
    public var keyID: String
    /// The team ID (`iss`), 10 characters `[A-Z0-9]`.
    public var teamID: String
    /// The P-256 signing key.
    public var privateKey: PrivateKey

    /// Creates a value from its parts; `keyID` and `teamID` are not checked here.
    public init(keyID: String, teamID: String, privateKey: PrivateKey) {
        self.keyID = keyID
        self.teamID = teamID
        self.privateKey = privateKey
    }

    /// A new key with a fresh P-256 key and random IDs where none are given. Given IDs must be
    /// 10 characters `[A-Z0-9]`, as Apple's are.
    public static func generate(teamID: String? = nil, keyID: String? = nil) throws(SigningError) -> APNsSigningKey {
        for (name, value) in [("team ID", teamID), ("key ID", keyID)] {
            if let value, !isAppleID(value) {
                throw SigningError(.badClaim, "APNs \(name) \"\(value)\" must be 10 characters A-Z or 0-9")
            }
        }
        return APNsSigningKey(
            keyID: keyID ?? SecureRandom.alphanumeric(10), teamID: teamID ?? SecureRandom.alphanumeric(10),
            privateKey: try PrivateKey.generateP256())
    }

    /// True for a 10-character `[A-Z0-9]` string, the shape of Apple's team and key IDs.
    public static func isAppleID(_ s: String) -> Bool {
        s.utf8.count == 10
            && s.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The key as Apple ships it in `AuthKey_<KEYID>.p8`: PKCS#8 PEM whose inner SEC1 key carries the curve
    /// parameters and the public key (150 bytes DER, four base64 lines, no trailing newline). OpenSSL's own
    /// PKCS#8 output omits the inner parameters, so the DER is assembled here.
    public func p8PEM() throws(SigningError) -> String {
        guard privateKey.kind == .p256 else { throw SigningError(.badKey, "an APNs key must be P-256") }
        var bn: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(privateKey.pkey, "priv", &bn) == 1, let bn else {
            throw SigningError.openssl("EVP_PKEY_get_bn_param(priv)")
        }
        defer { BN_clear_free(bn) }
        var scalar = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(bn, &scalar, 32) == 32 else { throw SigningError.openssl("BN_bn2binpad") }
        let spki = try DER.encode("i2d_PUBKEY") { i2d_PUBKEY(privateKey.pkey, $0) }
        let point = Array(spki.suffix(65))
        guard spki.count == 91, point.first == 0x04 else {
            throw SigningError(.badKey, "unexpected P-256 public key encoding (\(spki.count) bytes)")
        }
        let oidP256: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        // PrivateKeyInfo { 0, { id-ecPublicKey, prime256v1 }, OCTET STRING { ECPrivateKey { 1, d, [0] prime256v1, [1] Q } } }
        var der: [UInt8] = [
            0x30, 0x81, 0x93, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
        ]
        der += oidP256
        der += [0x04, 0x79, 0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20] + scalar
        der += [0xA0, 0x0A] + oidP256
        der += [0xA1, 0x44, 0x03, 0x42, 0x00] + point
        return PEM.encode(der, label: "PRIVATE KEY", trailingNewline: false)
    }

    /// Writes `AuthKey_<keyID>.p8` (mode 0600) into `dir` and returns its path.
    public func writeP8(toDirectory dir: String) throws(SigningError) -> String {
        let path = (dir.hasSuffix("/") ? dir : dir + "/") + "AuthKey_\(keyID).p8"
        try FileAccess.writeFile(try p8PEM(), to: path, mode: 0o600)
        return path
    }

    /// The provider token a backend sends in `authorization: bearer …`: an ES256 JWT with header
    /// `{"alg":"ES256","kid":keyID}` and claims `{"iss":teamID,"iat":<integer seconds>}`.
    public func providerToken(issuedAt: Double) throws(SigningError) -> String {
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyID)]
        let claims: JSONValue = ["iss": .string(teamID), "iat": .int(Int64(issuedAt.rounded(.down)))]
        return try JWT.sign(header: header, claims: claims, key: privateKey, addType: false)
    }
}
