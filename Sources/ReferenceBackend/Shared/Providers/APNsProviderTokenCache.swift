import Signing
import Synchronization

/// When to sign a new APNs provider token, as a pure rule: reuse the current one until it is
/// `renewAfterMs` old, never sign twice within `minIntervalMs`, and replace one APNs rejected
/// as expired as soon as the interval allows. APNs refuses tokens older than an hour
/// (`ExpiredProviderToken`) and new tokens more often than every 20 minutes
/// (`TooManyProviderTokenUpdates`).
public struct ProviderTokenSchedule: Sendable, Equatable {
    /// A token this old is replaced (before APNs's one-hour limit).
    public var renewAfterMs: Int64 = 50 * 60_000
    /// New tokens are at least this far apart (APNs's 20-minute rule).
    public var minIntervalMs: Int64 = 20 * 60_000

    /// When the current token was signed; nil before the first.
    public private(set) var issuedAtMs: Int64?
    /// APNs said the current token expired.
    public private(set) var rejected = false

    public init() {}

    /// Whether a token needed at `nowMs` must be newly signed.
    public func needsNewToken(nowMs: Int64) -> Bool {
        guard let issuedAtMs else { return true }
        let age = nowMs - issuedAtMs
        if age < minIntervalMs { return false }
        return rejected || age >= renewAfterMs
    }

    /// Records that a token was signed at `nowMs`.
    public mutating func signed(atMs nowMs: Int64) {
        issuedAtMs = nowMs
        rejected = false
    }

    /// Records that APNs rejected the current token as expired.
    public mutating func markRejected() { rejected = true }
}

/// The backend's APNs provider token: an ES256 JWT signed once and reused for every push, on
/// both hosts, renewed by `ProviderTokenSchedule`.
public final class APNsProviderTokenCache: Sendable {
    private struct State {
        var schedule = ProviderTokenSchedule()
        var token: String?
        var signedCount = 0
        var onSigned: (@Sendable (_ token: String, _ issuedAtMs: Int64) -> Void)?
    }

    public let key: APNsSigningKey
    private let clock: MillisecondClock
    private let state = Mutex(State())

    public init(key: APNsSigningKey, clock: @escaping MillisecondClock = SystemClock.milliseconds) {
        self.key = key
        self.clock = clock
    }

    /// The token to send now, signing a new one when the schedule says so.
    public func token() throws(SigningError) -> String {
        let now = clock()
        typealias Signed = (token: String, tell: (@Sendable (String, Int64) -> Void)?)
        let result: Result<Signed, SigningError> = state.withLock { state in
            if let token = state.token, !state.schedule.needsNewToken(nowMs: now) { return .success((token, nil)) }
            do throws(SigningError) {
                let token = try key.providerToken(issuedAt: Double(now) / 1000)
                state.token = token
                state.schedule.signed(atMs: now)
                state.signedCount += 1
                return .success((token, state.onSigned))
            } catch { return .failure(error) }
        }
        let signed = try result.get()
        // Told outside the lock: keeping the token is a database write no other sender should wait on.
        signed.tell?(signed.token, now)
        return signed.token
    }

    /// APNs answered `ExpiredProviderToken` to `token`: replace it as soon as allowed.
    public func rejected(_ token: String) {
        state.withLock { state in
            if state.token == token { state.schedule.markRejected() }
        }
    }

    /// Takes over a token a previous process signed at `issuedAtMs` (kept in its database), so a restart
    /// does not sign a new one within APNs's 20 minutes; `onSigned` hears of every token signed later.
    public func restore(
        token: String?, issuedAtMs: Int64?, onSigned: @escaping @Sendable (_ token: String, _ issuedAtMs: Int64) -> Void
    ) {
        state.withLock { state in
            if state.token == nil, let token, let issuedAtMs {
                state.token = token
                state.schedule.signed(atMs: issuedAtMs)
            }
            state.onSigned = onSigned
        }
    }

    /// How many tokens were signed so far.
    public var signedCount: Int { state.withLock { $0.signedCount } }
}
