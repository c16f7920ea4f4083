import COpenSSL
import JSON

/// A compact JWS (JSON Web Token) split into its parts, as received or as made.
public struct JWT: Sendable {
    /// The decoded protected header (a JSON object).
    public var header: JSONValue
    /// The decoded payload (a JSON object of claims).
    public var claims: JSONValue
    /// The bytes that were signed: ASCII `base64url(header).base64url(payload)` exactly as received.
    public var signingInput: [UInt8]
    /// The decoded signature.
    public var signature: [UInt8]

    /// Creates a token from its parts.
    public init(header: JSONValue, claims: JSONValue, signingInput: [UInt8], signature: [UInt8]) {
        self.header = header
        self.claims = claims
        self.signingInput = signingInput
        self.signature = signature
    }

    /// The header's `alg`, when it is a string.
    public var algorithm: String? { header["alg"]?.stringValue }
    /// The header's `kid`, when it is a string.
    public var keyID: String? { header["kid"]?.stringValue }

    // MARK: Decoding

    /// Splits and decodes a compact JWS without verifying anything; errors say which part is malformed.
    public static func decode(_ token: String) throws(SigningError) -> JWT {
        let bytes = Array(token.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw SigningError(
                .malformed,
                "JWT has \(parts.count) part\(parts.count == 1 ? "" : "s"); expected 3 (header.payload.signature)")
        }
        let header = try decodeJSONPart(parts[0], name: "header")
        let claims = try decodeJSONPart(parts[1], name: "payload")
        guard let signature = Base64Codec.decode(parts[2], url: true) else {
            throw SigningError(.malformed, "JWT signature is not valid base64url")
        }
        let signingInput = Array(bytes[..<parts[1].endIndex])
        return JWT(header: header, claims: claims, signingInput: signingInput, signature: signature)
    }

    private static func decodeJSONPart(_ part: ArraySlice<UInt8>, name: String) throws(SigningError) -> JSONValue {
        guard !part.isEmpty else { throw SigningError(.malformed, "JWT \(name) is empty") }
        guard let json = Base64Codec.decode(part, url: true) else {
            throw SigningError(.malformed, "JWT \(name) is not valid base64url")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(json)
        } catch {
            throw SigningError(.malformed, "JWT \(name) is not JSON: \(error)")
        }
        guard case .object = value else {
            throw SigningError(.malformed, "JWT \(name) is a JSON \(value.typeName), not an object")
        }
        return value
    }

    // MARK: Signing

    /// Signs a token with `key`: sets `"alg"` (ES256 or RS256 by key kind) and `"typ": "JWT"` in the header
    /// unless present. Returns the compact serialization.
    public static func sign(header: JSONValue, claims: JSONValue, key: PrivateKey) throws(SigningError) -> String {
        try sign(header: header, claims: claims, key: key, addType: true)
    }

    /// Signs like `sign(header:claims:key:)`, adding `"typ": "JWT"` only when `addType` is true.
    static func sign(header: JSONValue, claims: JSONValue, key: PrivateKey, addType: Bool) throws(SigningError)
        -> String
    {
        let input = signingInput(
            header: completedHeader(header, alg: JWTAlgorithm.forKey(key.kind), addType: addType), claims: claims)
        let signature = try key.sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// Signs an HS256 token with `hmacSecret`: sets `"alg": "HS256"` and `"typ": "JWT"` unless present.
    public static func sign(header: JSONValue, claims: JSONValue, hmacSecret: [UInt8]) -> String {
        let input = signingInput(header: completedHeader(header, alg: .hs256, addType: true), claims: claims)
        return input + "." + Base64URL.encode(HMAC.sha256(key: hmacSecret, message: Array(input.utf8)))
    }

    private static func completedHeader(_ header: JSONValue, alg: JWTAlgorithm, addType: Bool) -> JSONValue {
        var h = header
        if case .object = h {} else { h = .object([]) }
        // "alg" goes first, as JOSE libraries write it.
        if h["alg"] == nil, case .object(let members) = h {
            h = .object([(key: "alg", value: .string(alg.rawValue))] + members)
        }
        if addType && h["typ"] == nil { h = h.setting("typ", to: "JWT") }
        return h
    }

    private static func signingInput(header: JSONValue, claims: JSONValue) -> String {
        Base64URL.encode(header.bytes()) + "." + Base64URL.encode(claims.bytes())
    }

    // MARK: Verifying

    /// Checks the signature with `key`. Throws `.badAlgorithm` when the header's `alg` does not match the
    /// key kind (ES256 for P-256, RS256 for RSA) and `.badSignature` when the signature is wrong.
    public func verifySignature(with key: PublicKey) throws(SigningError) {
        let expected = JWTAlgorithm.forKey(key.kind)
        guard let alg = algorithm else { throw SigningError(.badAlgorithm, "JWT header has no \"alg\"") }
        guard alg == expected.rawValue else {
            throw SigningError(
                .badAlgorithm,
                "JWT alg \"\(alg)\" does not match the \(key.kind == .p256 ? "P-256" : "RSA") key (expects \(expected.rawValue))"
            )
        }
        if key.kind == .p256 && signature.count != 64 {
            throw SigningError(
                .badSignature, "ES256 signature is \(signature.count) bytes; expected 64 (raw r‖s, not DER)")
        }
        guard key.verify(signature: signature, message: signingInput) else {
            throw SigningError(.badSignature, "JWT \(alg) signature does not verify")
        }
    }

    /// Checks an HS256 signature with `hmacSecret`. Throws `.badAlgorithm` unless `alg` is HS256 and
    /// `.badSignature` when the signature is wrong.
    public func verifySignature(hmacSecret: [UInt8]) throws(SigningError) {
        guard let alg = algorithm else { throw SigningError(.badAlgorithm, "JWT header has no \"alg\"") }
        guard alg == JWTAlgorithm.hs256.rawValue else {
            throw SigningError(.badAlgorithm, "JWT alg \"\(alg)\" does not match an HMAC secret (expects HS256)")
        }
        guard HMAC.constantTimeEquals(HMAC.sha256(key: hmacSecret, message: signingInput), signature) else {
            throw SigningError(.badSignature, "JWT HS256 signature does not verify")
        }
    }

    // MARK: Claims

    /// A NumericDate claim (`iat`, `exp`, `nbf`) in seconds since 1970. Accepts integer, float and
    /// numeric-string values, since APNs clients send all three; nil when absent or not numeric.
    public func numericDate(_ claim: String) -> Double? {
        let value: Double?
        switch claims[claim] {
        case .number(let n)?: value = Double(n)
        case .string(let s)?: value = Double(s.trimmingASCIISpaces())
        default: value = nil
        }
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// A string claim, or nil when absent or not a string.
    public func stringClaim(_ claim: String) -> String? { claims[claim]?.stringValue }
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs.
    func trimmingASCIISpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = lastIndex(where: { !isSpace($0) })!
        return self[start...end]
    }
}
