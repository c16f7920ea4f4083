/// The claims of a provider token that passed verification.
public struct VerifiedProviderToken: Sendable, Equatable {
    public var keyID: String
    public var teamID: String
    /// `iat` in seconds (integer, float or numeric string on the wire).
    public var issuedAt: Double

    /// Creates a value from its parts.
    public init(keyID: String, teamID: String, issuedAt: Double) {
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
    }
}

/// APNs provider-token bookkeeping as a pure state machine: the cache of verified tokens
/// (token string → claims) and, per signing key, when a new token was last accepted.
///
/// A request first asks `check`; a token the book does not know is verified outside (signature,
/// `alg`, `kid`, `iss`) and then offered to `admit`, which enforces the one-hour age limit and the
/// 20-minute refresh rule. Reusing an accepted token is always fine until it is an hour old.
public struct ProviderTokenBook: Sendable {
    /// A token older than this is `ExpiredProviderToken`.
    public static let maxAgeMs: Int64 = 3_600_000
    /// A new token sooner than this after the previous new one for the same key is `TooManyProviderTokenUpdates`.
    public static let minRefreshIntervalMs: Int64 = 1_200_000
    /// The most tokens cached; older entries are pruned beyond it.
    public static let cacheLimit = 1000

    /// What the book decides about a token.
    public enum Decision: Sendable, Equatable {
        /// Valid; `new` is true when this request introduced the token.
        case accepted(VerifiedProviderToken, new: Bool)
        case expired
        case tooManyUpdates
    }

    private(set) var cache: [String: VerifiedProviderToken] = [:]
    private(set) var lastNewTokenMs: [String: Int64] = [:]
    /// The token `check` found last, compared before hashing a token (a JWT of some 250 bytes) for
    /// the dictionary: clients send one token for many pushes. Always an entry of `cache`.
    private var last: (token: String, verified: VerifiedProviderToken)?

    /// Creates a value from its parts.
    public init() {}

    /// The decision for a token already verified, or nil when the token is unknown and must be verified.
    public mutating func check(token: String, nowMs: Int64) -> Decision? {
        let verified: VerifiedProviderToken
        if let last, last.token == token {
            verified = last.verified
        } else {
            guard let found = cache[token] else { return nil }
            verified = found
            last = (token, found)
        }
        if Self.isExpired(verified, nowMs: nowMs) { return .expired }
        return .accepted(verified, new: false)
    }

    /// Offers a freshly verified token.
    public mutating func admit(token: String, verified: VerifiedProviderToken, nowMs: Int64) -> Decision {
        if let known = check(token: token, nowMs: nowMs) { return known }
        if Self.isExpired(verified, nowMs: nowMs) { return .expired }
        if let last = lastNewTokenMs[verified.keyID], nowMs - last < Self.minRefreshIntervalMs {
            return .tooManyUpdates
        }
        if cache.count >= Self.cacheLimit {
            cache = cache.filter { !Self.isExpired($0.value, nowMs: nowMs) }
            last = nil
        }
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        cache[token] = verified
        lastNewTokenMs[verified.keyID] = nowMs
        return .accepted(verified, new: true)
    }

    /// How many tokens are cached.
    public var cachedCount: Int { cache.count }

    static func isExpired(_ token: VerifiedProviderToken, nowMs: Int64) -> Bool {
        Double(nowMs) - token.issuedAt * 1000 > Double(maxAgeMs)
    }
}
