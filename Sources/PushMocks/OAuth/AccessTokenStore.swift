import Signing
import Synchronization

/// The access tokens the OAuth mock issued, with their expiry: what the FCM mock accepts.
public final class AccessTokenStore: Sendable {
    /// One issued token.
    public struct Grant: Sendable, Equatable {
        public var token: String
        public var clientEmail: String
        public var scope: String
        public var issuedAtMs: Int64
        public var expiresAtMs: Int64
    }

    /// What a presented token is.
    public enum Lookup: Sendable, Equatable {
        case valid(Grant)
        case expired(Grant)
        case unknown
    }

    /// The lifetime Google gives access tokens (`expires_in`).
    public static let defaultLifetimeSeconds: Int64 = 3599

    private let grants = Mutex<[String: Grant]>([:])

    /// An empty store.
    public init() {}

    /// Issues a new opaque token (`ya29.` like Google's).
    public func issue(
        clientEmail: String, scope: String, nowMs: Int64, lifetimeSeconds: Int64 = defaultLifetimeSeconds
    ) -> Grant {
        let grant = Grant(
            token: "ya29.mock-" + SecureRandom.alphanumeric(64, uppercaseOnly: false), clientEmail: clientEmail,
            scope: scope,
            issuedAtMs: nowMs, expiresAtMs: nowMs + lifetimeSeconds * 1000)
        grants.withLock { grants in
            // Drop long-expired grants so a busy run does not grow without bound.
            if grants.count > 10_000 { grants = grants.filter { $0.value.expiresAtMs > nowMs - 3_600_000 } }
            grants[grant.token] = grant
        }
        return grant
    }

    /// Whether `token` was issued and is still valid at `nowMs`.
    public func lookup(_ token: String, nowMs: Int64) -> Lookup {
        guard let grant = grants.withLock({ $0[token] }) else { return .unknown }
        return nowMs < grant.expiresAtMs ? .valid(grant) : .expired(grant)
    }

    /// Every token issued and still remembered.
    public var all: [Grant] { grants.withLock { Array($0.values) } }

    /// Forgets every token (clients must fetch new ones).
    public func revokeAll() { grants.withLock { $0.removeAll() } }
}
