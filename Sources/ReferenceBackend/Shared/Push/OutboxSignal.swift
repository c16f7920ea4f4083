import Synchronization

/// Wakes the push worker when new work may be due, so a push leaves as soon as its
/// transaction commits instead of at the next poll.
public final class OutboxSignal: Sendable {
    private struct State {
        var pending = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Waiters whose timeout fired before they registered.
        var timedOut: Set<UInt64> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes every waiter now, or the next one to wait if none is waiting.
    public func notify() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after `notify()`, or after `timeoutMs` at the latest.
    public func wait(timeoutMs: Int64) async {
        let id = state.withLock { state -> UInt64? in
            if state.pending {
                state.pending = false
                return nil
            }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let id else { return }
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(max(timeoutMs, 0)))
            if !Task.isCancelled { self.wake(id) }
        }
        await withCheckedContinuation { continuation in
            let alreadyWoken = state.withLock { state -> Bool in
                // notify() or the timeout may have run between choosing an id and getting here.
                if state.timedOut.remove(id) != nil { return true }
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiters[id] = continuation
                return false
            }
            if alreadyWoken { continuation.resume() }
        }
        timer.cancel()
        state.withLock { _ = $0.timedOut.remove(id) }
    }

    private func wake(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.timedOut.insert(id)
                return nil
            }
            return waiter
        }
        waiter?.resume()
    }
}
