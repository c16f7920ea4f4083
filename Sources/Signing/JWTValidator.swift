#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Generic JWT checks (algorithm, signature, required claims, time window) with an injectable clock.
/// Service-specific rules (APNs' `kid`/`iss`, Google's `scope`) belong to the caller.
public struct JWTValidator: Sendable {
    /// Algorithms accepted in the header's `alg`.
    public var algorithms: Set<JWTAlgorithm>
    /// Claims that must be present.
    public var requiredClaims: [String]
    /// Clock skew tolerated for `exp`, `nbf` and `iat`, in seconds.
    public var leewaySeconds: Double
    /// When set, tokens whose `iat` is more than this many seconds ago are rejected as `.expired`
    /// (and `iat` becomes required).
    public var maxAgeSeconds: Double?
    /// The current time in seconds since 1970.
    public var now: @Sendable () -> Double

    /// Creates a validator; by default it accepts ES256 and RS256, requires nothing, allows 60 s of skew
    /// and reads the system clock.
    public init(
        algorithms: Set<JWTAlgorithm> = [.es256, .rs256], requiredClaims: [String] = [], leewaySeconds: Double = 60,
        maxAgeSeconds: Double? = nil, now: @escaping @Sendable () -> Double = JWTValidator.systemTime
    ) {
        self.algorithms = algorithms
        self.requiredClaims = requiredClaims
        self.leewaySeconds = leewaySeconds
        self.maxAgeSeconds = maxAgeSeconds
        self.now = now
    }

    /// The system's wall-clock time in seconds since 1970.
    @Sendable public static func systemTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Decodes `token`, checks that its `alg` is allowed and its signature verifies with `key`, then checks
    /// the claims (see `validateClaims`). Each failure throws a distinct code: `.malformed`, `.badAlgorithm`,
    /// `.badSignature`, `.missingClaim`, `.badClaim`, `.expired`, `.notYetValid`.
    public func validate(_ token: String, key: PublicKey) throws(SigningError) -> JWT {
        let jwt = try JWT.decode(token)
        try checkAlgorithm(jwt)
        try jwt.verifySignature(with: key)
        try validateClaims(jwt)
        return jwt
    }

    /// Like `validate(_:key:)` for HS256 tokens.
    public func validate(_ token: String, hmacSecret: [UInt8]) throws(SigningError) -> JWT {
        let jwt = try JWT.decode(token)
        try checkAlgorithm(jwt)
        try jwt.verifySignature(hmacSecret: hmacSecret)
        try validateClaims(jwt)
        return jwt
    }

    private func checkAlgorithm(_ jwt: JWT) throws(SigningError) {
        guard let alg = jwt.algorithm else { throw SigningError(.badAlgorithm, "JWT header has no \"alg\"") }
        guard let known = JWTAlgorithm(rawValue: alg), algorithms.contains(known) else {
            let allowed = algorithms.map(\.rawValue).sorted().joined(separator: ", ")
            throw SigningError(.badAlgorithm, "JWT alg \"\(alg)\" is not allowed (allowed: \(allowed))")
        }
    }

    /// Checks required claims and the time window of an already verified token.
    public func validateClaims(_ jwt: JWT) throws(SigningError) {
        for claim in requiredClaims where jwt.claims[claim] == nil {
            throw SigningError(.missingClaim, "JWT is missing required claim \"\(claim)\"")
        }
        let t = now()
        let exp = try date(jwt, "exp")
        let nbf = try date(jwt, "nbf")
        let iat = try date(jwt, "iat")
        if let exp, t >= exp + leewaySeconds {
            throw SigningError(
                .expired, "JWT expired: exp \(format(exp)) is \(format(t - exp)) s before now (\(format(t)))")
        }
        if let nbf, nbf > t + leewaySeconds {
            throw SigningError(
                .notYetValid, "JWT not valid yet: nbf \(format(nbf)) is \(format(nbf - t)) s after now (\(format(t)))")
        }
        if let iat, iat > t + leewaySeconds {
            throw SigningError(
                .notYetValid,
                "JWT issued in the future: iat \(format(iat)) is \(format(iat - t)) s after now (\(format(t)))")
        }
        if let maxAge = maxAgeSeconds {
            guard let iat else {
                throw SigningError(.missingClaim, "JWT has no \"iat\", needed to check its age")
            }
            if t - iat > maxAge {
                throw SigningError(
                    .expired,
                    "JWT is too old: issued \(format(t - iat)) s ago (iat \(format(iat))), maximum \(format(maxAge)) s")
            }
        }
    }

    /// A NumericDate claim, nil when absent, `.badClaim` when present but not numeric.
    private func date(_ jwt: JWT, _ claim: String) throws(SigningError) -> Double? {
        guard let raw = jwt.claims[claim] else { return nil }
        guard let value = jwt.numericDate(claim) else {
            throw SigningError(.badClaim, "JWT claim \"\(claim)\" is not a NumericDate (got \(raw.typeName) \(raw))")
        }
        return value
    }

    private func format(_ v: Double) -> String {
        if let i = Int64(exactly: v.rounded()), abs(v - v.rounded()) < 0.0005 { return String(i) }
        return String((v * 1000).rounded() / 1000)
    }
}
