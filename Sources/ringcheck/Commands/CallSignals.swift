import HTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM for `ringcheck call`, one watcher for the whole command: while the mocks and
/// the backend start, a signal stops what was started and exits (128 + signal); once the call is
/// placed, it is handed to the caller, which cancels or hangs up the call before exiting.
final class CallSignals: Sendable {
    private enum Phase {
        case startingUp
        case calling(waiter: CheckedContinuation<Void, Never>?, arrived: Bool)
    }
    private let phase = Mutex(Phase.startingUp)

    /// Installs the handlers and starts watching; false when signals cannot be caught here.
    func watch(cleanup: RunCleanup) -> Bool {
        do { try TerminationSignals.install() } catch {
            Console.error("ringcheck call: Ctrl-C will not cancel the call: \(error)")
            return false
        }
        Task.detached {
            let signal = await TerminationSignals.wait()
            let startingUp = self.phase.withLock { phase -> Bool in
                switch phase {
                case .startingUp: return true
                case .calling(let waiter, _):
                    phase = .calling(waiter: nil, arrived: true)
                    waiter?.resume()
                    return false
                }
            }
            guard startingUp else { return }
            Console.error("ringcheck call: interrupted (signal \(signal)) while starting; stopping what it started…")
            await cleanup.run()
            exit(128 + signal)
        }
        return true
    }

    /// The call is placed: from now on a signal is the caller's to handle.
    func callPlaced() {
        phase.withLock { phase in
            if case .startingUp = phase { phase = .calling(waiter: nil, arrived: false) }
        }
    }

    /// Returns once a signal arrives after `callPlaced()`.
    func interrupted() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = phase.withLock { phase -> Bool in
                if case .calling(_, true) = phase { return true }
                phase = .calling(waiter: continuation, arrived: false)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
