import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time source of the mocks, in milliseconds since the UNIX epoch.
///
/// Injected so tests control time (token expiry, the 20-minute refresh rule, access-token lifetimes).
public struct MockClock: Sendable {
    /// Returns the current time in milliseconds since the UNIX epoch.
    public let nowMs: @Sendable () -> Int64
    /// True for `system`: the wall clock, which the HTTP server also reads when a request arrives.
    public let isSystem: Bool

    /// A clock reading time from `nowMs`.
    public init(_ nowMs: @escaping @Sendable () -> Int64) { self.init(nowMs, isSystem: false) }

    private init(_ nowMs: @escaping @Sendable () -> Int64, isSystem: Bool) {
        self.nowMs = nowMs
        self.isSystem = isSystem
    }

    /// The current time in milliseconds.
    public func callAsFunction() -> Int64 { nowMs() }

    /// The wall clock.
    public static let system = MockClock(
        {
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
        }, isSystem: true)

    /// A clock that never moves.
    public static func fixed(_ ms: Int64) -> MockClock { MockClock { ms } }
}

/// A clock that only moves when told to, for tests.
public final class ManualClock: Sendable {
    private let current: Mutex<Int64>

    /// A clock starting at `startMs`.
    public init(startMs: Int64 = 1_790_000_000_000) { current = Mutex(startMs) }

    /// The current time in milliseconds.
    public var nowMs: Int64 { current.withLock { $0 } }

    /// Moves the clock forward (or back, with a negative value).
    public func advance(ms: Int64) { current.withLock { $0 += ms } }

    /// Moves the clock forward by whole seconds.
    public func advance(seconds: Int64) { advance(ms: seconds * 1000) }

    /// Sets the clock.
    public func set(ms: Int64) { current.withLock { $0 = ms } }

    /// A `MockClock` reading this clock.
    public var clock: MockClock { MockClock { [self] in self.nowMs } }
}
