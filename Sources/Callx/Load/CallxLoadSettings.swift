import Conformance

/// The knobs of Callx's load mix that the generic `LoadPlan` knows nothing of: the short ring of the
/// `expire` script, how often creates and answers are retried, how often feeds are read, and how long
/// one call may wait for its invitations or its expiry.
///
/// ```swift
/// let workload = try CallxLoadWorkload(
///     target: target, mocks: mocks, settings: CallxLoadSettings(shortRingSeconds: 5), callers: [a], callees: [b])
/// ```
public struct CallxLoadSettings: Sendable, Equatable {
    /// How long a call of the `expire` script rings, through the target's short-ring field.
    public var shortRingSeconds: Int
    /// Every n-th call retries its create with the same operationId and body; every n-th answer is retried too.
    public var retryEvery: Int
    /// How often each feed is read while calls run (milliseconds).
    public var feedPollMs: Int
    /// The longest any single wait of a call may take (its invitations, its expiry), in seconds.
    public var waitLimitSeconds: Double

    /// Creates settings; the defaults are `ringcheck load`'s.
    public init(shortRingSeconds: Int = 3, retryEvery: Int = 4, feedPollMs: Int = 250, waitLimitSeconds: Double = 20) {
        self.shortRingSeconds = max(1, shortRingSeconds)
        self.retryEvery = max(1, retryEvery)
        self.feedPollMs = max(10, feedPollMs)
        self.waitLimitSeconds = waitLimitSeconds
    }
}
