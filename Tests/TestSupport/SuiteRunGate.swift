import Synchronization

/// Lets one whole-suite run at a time go ahead in this test process.
///
/// A suite run starts dozens of concurrent scenarios whose calls ring for a few seconds; several of them
/// at once (the mutation matrix beside the engine's and the CLI's own whole-suite tests) oversubscribe
/// two cores until calls expire before their answers arrive. Tests that run the whole suite, in-process
/// or through the binary, wait their turn here rather than stretch the scenarios' time limits.
public enum SuiteRunGate {
    private static let gate = ExclusiveGate()

    /// Runs `body` once no other whole-suite run of this process is in progress.
    public static func exclusive<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await gate.exclusive(body)
    }
}

/// Lets one body at a time go ahead: `exclusive` waits, in order of arrival, until no other body of the
/// same gate runs.
public final class ExclusiveGate: Sendable {
    private let state = Mutex(State())

    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    public init() {}

    /// Runs `body` once no other body of this gate is in progress.
    public func exclusive<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { s -> Bool in
                if s.busy {
                    s.waiters.append(continuation)
                    return false
                }
                s.busy = true
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.busy = false
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }
}
