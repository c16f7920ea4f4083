import Conformance

/// The run's `RunCleanup` as `RunSession` uses it: on SIGINT or SIGTERM it stops what the run started,
/// lets the session write its interrupted reports and exits with 128 + the signal's number
/// (`RunCleanup.exitOnSignal`, `RunCleanup.exitAfterCleanup`).
struct SignalRunCleanup: RunSessionCleanup {
    let cleanup: RunCleanup
    /// The command its interruption messages name (`ringcheck run: interrupted …`).
    let command: String

    func run() async { await cleanup.run() }

    func stopOnInterruption(
        onSignal: @escaping @Sendable (Int32) async -> Void, beforeExit: @escaping @Sendable (Int32) async -> Void
    ) throws {
        try cleanup.exitOnSignal(command: command, onSignal: onSignal, beforeExit: beforeExit)
    }
}
