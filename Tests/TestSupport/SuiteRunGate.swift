import Synchronization

/// Lets one whole-suite run at a time go ahead in this test process.
///
/// A suite run starts dozens of concurrent scenarios whose calls ring for a few seconds; several of them
/// at once (the mutation matrix beside the engine's and the CLI's own whole-suite tests) oversubscribe
/// two cores until calls expire before their answers arrive. Tests that run the whole suite, in-process
/// or through the binary, wait their turn here rather than stretch the scenarios' time limits.
public enum SuiteRunGate {
    private static let state = Mutex(State())

    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Runs `body` once no other whole-suite run of this process is in progress.
    public static func exclusive<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private static func acquire() async {
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

    private static func release() {
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
