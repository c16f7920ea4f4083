import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Reaps one child on a thread of its own (a blocking `waitpid`, never on the cooperative pool) and
/// lets any number of tasks await its end.
///
/// Once a watcher exists it is the child's only reaper: do not also `poll`, `wait` or `kill` the child
/// through `ChildProcess`, which would reap it behind the watcher's back (send signals with
/// `signalGroup` instead).
public final class ExitWatcher: Sendable {
    private struct State {
        var status: ExitStatus?
        var waiters: [CheckedContinuation<ExitStatus, Never>] = []
    }

    public let child: ChildProcess
    private let state = Mutex(State())

    /// Starts watching `child`.
    public init(_ child: ChildProcess) {
        self.child = child
        let thread = Thread { [self] in
            var raw: Int32 = 0
            var status = ExitStatus(exitCode: -1)
            while true {
                let r = waitpid(child.pid, &raw, 0)
                if r == child.pid {
                    status = ExitStatus(waitStatus: raw)
                    ChildGuardian.forgetIfGone(child.pid)
                    break
                }
                if r < 0 && errno != EINTR { break }  // reaped by someone else: the status is unknown
            }
            finish(status)
        }
        thread.name = "ringcheck-reaper-\(child.pid)"
        thread.start()
    }

    private func finish(_ status: ExitStatus) {
        let waiters = state.withLock { s in
            s.status = status
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for w in waiters { w.resume(returning: status) }
    }

    /// How the child ended, or nil while it runs.
    public var status: ExitStatus? { state.withLock { $0.status } }

    /// Waits until the child has ended.
    public func exited() async -> ExitStatus {
        await withCheckedContinuation { continuation in
            let done = state.withLock { s -> ExitStatus? in
                if let status = s.status { return status }
                s.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Waits until the child has ended or `timeout` has passed; nil when it still runs.
    public func exited(within timeout: Duration) async -> ExitStatus? {
        // Polled with sleeps: a waiter parked on the continuation could not be called off at the deadline.
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
