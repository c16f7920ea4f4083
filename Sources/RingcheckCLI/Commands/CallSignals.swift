import HTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C and SIGTERM for `ringcheck call` and `ringcheck load`, one watcher for the whole command: while the mocks and
/// the backend start, a signal stops what was started and exits (128 + signal); once the call is
/// placed, it is handed to the caller, which cancels or hangs up the call before exiting.
final class CallSignals: Sendable {
    private enum Phase {
        case startingUp
        /// A signal came while starting: the watcher is stopping what was started, then exits.
        case stopping
        case calling(waiter: CheckedContinuation<Void, Never>?, arrived: Bool)
    }
    private let phase = Mutex(Phase.startingUp)
    private let received = Mutex<Int32?>(nil)
    /// The command's name in messages (`call`, `load`).
    let command: String

    init(command: String) { self.command = command }

    /// Installs the handlers and starts watching; false when signals cannot be caught here, or are not this
    /// command's to catch (run in a test process, not as the process's own command line: `Ringcheck.ownsTheProcess`).
    func watch(cleanup: RunCleanup) -> Bool {
        guard Ringcheck.ownsTheProcess.load(ordering: .relaxed) else { return false }
        do { try TerminationSignals.install() } catch {
            Console.error("ringcheck \(self.command): Ctrl-C will not stop it cleanly: \(error)")
            return false
        }
        Task.detached {
            let signal = await TerminationSignals.wait()
            self.received.withLock { $0 = signal }
            let startingUp = self.phase.withLock { phase -> Bool in
                switch phase {
                case .startingUp:
                    phase = .stopping
                    return true
                case .stopping: return false
                case .calling(let waiter, _):
                    phase = .calling(waiter: nil, arrived: true)
                    waiter?.resume()
                    return false
                }
            }
            guard startingUp else { return }
            Console.error(
                "ringcheck \(self.command): interrupted (signal \(signal)) while starting; stopping what it started…")
            await cleanup.run()
            RunCleanup.exitAfterCleanup(128 + signal)
        }
        return true
    }

    /// Called when starting failed: if a signal came meanwhile, the failure is most likely the signal's
    /// own clean-up stopping the backend, so this never returns and the watcher exits with 128 + the
    /// signal once the clean-up is done (reporting the failure instead made a Ctrl-C exit 3 when the
    /// start noticed the stopped backend first). Returns at once when no signal came.
    func yieldToInterruption() async {
        guard phase.withLock({ if case .stopping = $0 { true } else { false } }) else { return }
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// The call is placed: from now on a signal is the caller's to handle.
    func callPlaced() {
        phase.withLock { phase in
            if case .startingUp = phase { phase = .calling(waiter: nil, arrived: false) }
        }
    }

    /// The signal that arrived (SIGINT, SIGTERM), if one did.
    var signal: Int32? { received.withLock { $0 } }

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
