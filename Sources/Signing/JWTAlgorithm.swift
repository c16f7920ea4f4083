/// The JWS algorithms ringcheck signs and verifies.
public enum JWTAlgorithm: String, Sendable {
    /// ECDSA P-256 with SHA-256, raw `r‖s` signatures (APNs provider tokens).
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Google service-account assertions).
    case rs256 = "RS256"
    /// HMAC with SHA-256.
    case hs256 = "HS256"

    /// The algorithm a key of `kind` signs with.
    static func forKey(_ kind: PrivateKey.Kind) -> JWTAlgorithm {
        switch kind {
        case .p256: return .es256
        case .rsa: return .rs256
        }
    }
}
