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
/// (token string → claims) and, per connection, the token in use there and when it was introduced.
///
/// A request first asks `check`; a token the book does not know is verified outside (signature,
/// `alg`, `kid`, `iss`) and then offered to `admit`, which enforces the one-hour age limit and the
/// 20-minute refresh rule.
///
/// The refresh rule is counted per connection: Apple does not say over what it counts, and real APNs
/// serves pools of connections that each sign their own token (one common Python client opens ten),
/// clients that reconnect after a GOAWAY or a reset, and several processes sharing one key. A token
/// whose key, team and `iat` equal the connection's current one (the same claims re-signed: ES256
/// signatures differ every time) is no update.
public struct ProviderTokenBook: Sendable {
    /// A token older than this is `ExpiredProviderToken`.
    public static let maxAgeMs: Int64 = 3_600_000
    /// A connection changing its token sooner than this after its previous change is `TooManyProviderTokenUpdates`.
    public static let minRefreshIntervalMs: Int64 = 1_200_000
    /// The most tokens cached; older entries are pruned beyond it.
    public static let cacheLimit = 1000
    /// The most connections remembered; those unseen longest are pruned beyond it.
    public static let connectionLimit = 4096

    /// What the book decides about a token.
    public enum Decision: Sendable, Equatable {
        /// Valid; `new` is true when this request changed the connection's token (or gave it its first).
        case accepted(VerifiedProviderToken, new: Bool)
        case expired
        case tooManyUpdates
    }

    /// The token a connection uses and since when.
    struct ConnectionToken: Sendable, Equatable {
        var current: VerifiedProviderToken
        /// When `current` became the connection's token.
        var sinceMs: Int64
        /// The connection's latest request, for pruning connections that have gone.
        var lastSeenMs: Int64

        /// The refresh rule for `verified` on this connection now, made its token when accepted.
        mutating func use(_ verified: VerifiedProviderToken, nowMs: Int64) -> Decision {
            if current == verified {
                // Pruning needs the last use to the second, not the millisecond: most requests write nothing.
                if nowMs - lastSeenMs >= 1000 { lastSeenMs = nowMs }
                return .accepted(verified, new: false)
            }
            guard nowMs - sinceMs >= ProviderTokenBook.minRefreshIntervalMs else { return .tooManyUpdates }
            self = ConnectionToken(current: verified, sinceMs: nowMs, lastSeenMs: nowMs)
            return .accepted(verified, new: true)
        }
    }

    private(set) var cache: [String: VerifiedProviderToken] = [:]
    private(set) var connections: [UInt64: ConnectionToken] = [:]
    /// The token `check` found last, compared before hashing a token (a JWT of some 250 bytes) for
    /// the dictionary: clients send one token for many pushes. Always an entry of `cache`.
    private var last: (token: String, verified: VerifiedProviderToken)?

    /// Creates a value from its parts.
    public init() {}

    /// The decision for a token already verified, used on `connection`; nil when the token is
    /// unknown and must be verified.
    public mutating func check(token: String, connection: UInt64, nowMs: Int64) -> Decision? {
        let verified: VerifiedProviderToken
        if let last, last.token == token {
            verified = last.verified
        } else {
            guard let found = cache[token] else { return nil }
            verified = found
            last = (token, found)
        }
        return use(verified, on: connection, nowMs: nowMs)
    }

    /// Offers a freshly verified token, used on `connection`.
    public mutating func admit(
        token: String, verified: VerifiedProviderToken, connection: UInt64, nowMs: Int64
    ) -> Decision {
        if let known = check(token: token, connection: connection, nowMs: nowMs) { return known }
        if Self.isExpired(verified, nowMs: nowMs) { return .expired }
        // Cached even when this connection may not switch to it yet: another connection may use it.
        if cache.count >= Self.cacheLimit {
            cache = cache.filter { !Self.isExpired($0.value, nowMs: nowMs) }
            last = nil
        }
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        cache[token] = verified
        return use(verified, on: connection, nowMs: nowMs)
    }

    /// The refresh rule for `verified` on `connection`, recording it as the connection's token when accepted.
    private mutating func use(_ verified: VerifiedProviderToken, on connection: UInt64, nowMs: Int64) -> Decision {
        if Self.isExpired(verified, nowMs: nowMs) { return .expired }
        guard let i = connections.index(forKey: connection) else {
            if connections.count >= Self.connectionLimit { pruneConnections(nowMs: nowMs) }
            connections[connection] = ConnectionToken(current: verified, sinceMs: nowMs, lastSeenMs: nowMs)
            return .accepted(verified, new: true)
        }
        // Changed in place: a copy of the entry retained and released its token's strings.
        return connections.values[i].use(verified, nowMs: nowMs)
    }

    /// Forgets connections unseen for an hour (their tokens have expired), then, if that was not enough,
    /// those unseen for 20 minutes, then all: a connection forgotten starts afresh with its next token.
    private mutating func pruneConnections(nowMs: Int64) {
        for idle in [Self.maxAgeMs, Self.minRefreshIntervalMs] {
            connections = connections.filter { nowMs - $0.value.lastSeenMs < idle }
            if connections.count < Self.connectionLimit { return }
        }
        connections.removeAll()
    }

    /// How many tokens are cached.
    public var cachedCount: Int { cache.count }

    /// How many connections the book remembers.
    public var connectionCount: Int { connections.count }

    static func isExpired(_ token: VerifiedProviderToken, nowMs: Int64) -> Bool {
        Double(nowMs) - token.issuedAt * 1000 > Double(maxAgeMs)
    }
}
