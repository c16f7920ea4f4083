import Conformance
import Foundation
import HTTP
import Synchronization

/// What `ringcheck run` must undo before it exits (stop the backend it started, the mocks), done once:
/// at the normal end, after a failure, or on Ctrl-C / SIGTERM, whichever comes first.
actor RunCleanup: CleanupRegistry {
    private var actions: [@Sendable () async -> Void] = []
    private var running: Task<Void, Never>?

    /// Adds an action; actions run in the reverse order of adding (the backend before the mocks it uses).
    func add(_ action: @escaping @Sendable () async -> Void) {
        actions.append(action)
    }

    /// Runs every action once; a second caller waits until the first run is over.
    func run() async {
        if running == nil {
            let actions = self.actions.reversed()
            self.actions = []
            running = Task {
                for action in actions { await action() }
            }
        }
        await running?.value
    }

    /// Catches SIGINT and SIGTERM from now on; the first one runs the cleanup, says so on stderr and
    /// exits with 128 + the signal's number (130 for Ctrl-C), as shells expect of an interrupted program.
    /// `onSignal` runs before the cleanup and `beforeExit` after it (`ringcheck run` freezes what ran, so
    /// scenarios broken by the stopping backend are not counted, then writes its reports). Only when the command
    /// owns the process (`Ringcheck.ownsTheProcess`): run in a test process it leaves the signals alone.
    nonisolated func exitOnSignal(
        command: String, onSignal: (@Sendable (Int32) async -> Void)? = nil,
        beforeExit: (@Sendable (Int32) async -> Void)? = nil
    ) throws {
        guard Ringcheck.ownsTheProcess.load(ordering: .relaxed) else { return }
        try TerminationSignals.install()
        Task.detached {
            let signal = await TerminationSignals.wait()
            await onSignal?(signal)
            Console.error("ringcheck \(command): interrupted (signal \(signal)); stopping what it started…")
            await self.run()
            await beforeExit?(signal)
            Console.error("ringcheck \(command): stopped.")
            Self.exitAfterCleanup(128 + signal)
        }
    }

    /// Ends the process once the cleanup ran: flushes the standard streams and leaves with `_exit`, not
    /// `exit`. Scenario tasks may still be signing a token or reading TLS on other threads, and `exit`'s
    /// handlers (OpenSSL's `OPENSSL_cleanup` among them) free the locks those threads are using: a Ctrl-C
    /// then ended in SIGSEGV instead of 130. Everything worth keeping was written and stopped before this.
    static func exitAfterCleanup(_ code: Int32) -> Never {
        fflush(nil)
        _exit(code)
    }
}
