import Foundation
import Synchronization

/// Lets a few whole-suite runs at a time go ahead in this test process.
///
/// A suite run starts dozens of concurrent scenarios whose calls ring for a few seconds. It is nearly all
/// waiting: a whole Callx run through the binary takes 1.7 s of CPU over 10 to 20 s, a push-service,
/// DialStack or OneSignal run under 0.6 s. One run at a time made the ~125 whole-suite runs of
/// `swift test` a single chain of idle waits, the longest in CI; many at once (the four mutation
/// matrices beside the engine's and the CLI's own whole-suite tests) oversubscribed two cores until calls
/// with a 4 s ring expired before they were answered. `slots` runs at a time keep the cores' share of
/// them small while the chain shrinks by that factor. Tests that run the whole suite, in-process or
/// through the binary, wait for a slot here rather than stretch the scenarios' time limits.
///
/// ```swift
/// let r = try await SuiteRunGate.exclusive { try await RingcheckBinary.run(["run"], timeout: 180) }
/// ```
public enum SuiteRunGate {
    /// How many whole-suite runs of this process may go ahead at once: 2, or `RINGCHECK_SUITE_RUN_SLOTS`
    /// (1 puts them back in one chain, to tell a timing failure from its neighbours). With 3 the whole
    /// `swift test` took 622 s instead of ~1,290 s, but the in-process runs crowded the timing tests that
    /// share the process's threads (a fake caller's retry came after its 25 s watch); 2 keeps most of the
    /// gain with a third less crowding.
    public static let slots = ProcessInfo.processInfo.environment["RINGCHECK_SUITE_RUN_SLOTS"].flatMap(Int.init) ?? 2

    private static let gate = ExclusiveGate(slots: slots)

    /// Runs `body` once fewer than `slots` other whole-suite runs of this process are in progress.
    public static func exclusive<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await gate.exclusive(body)
    }
}

/// Lets one body (or `slots` bodies) at a time go ahead: `exclusive` waits, in order of arrival, until
/// fewer than `slots` other bodies of the same gate run.
///
/// ```swift
/// let gate = ExclusiveGate()            // one at a time
/// try await gate.exclusive { try await heavyWork() }
/// ```
public final class ExclusiveGate: Sendable {
    private let state: Mutex<State>

    private struct State {
        var slots: Int
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A gate that lets `slots` bodies (at least one) run at a time.
    public init(slots: Int = 1) {
        state = Mutex(State(slots: max(1, slots)))
    }

    /// How many bodies wait for a slot now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Runs `body` once fewer than `slots` other bodies of this gate are in progress.
    public func exclusive<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { s -> Bool in
                if s.running >= s.slots {
                    s.waiters.append(continuation)
                    return false
                }
                s.running += 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the slot to the first waiter, or frees it.
    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.running -= 1
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }
}
