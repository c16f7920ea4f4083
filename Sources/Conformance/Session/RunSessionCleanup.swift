/// What a `RunSession` asks of the run's cleanup: stop, once, whatever the run started (the backend, the
/// mocks), and, on an interruption (Ctrl-C, SIGTERM), stop it too and end the process. The `ringcheck`
/// CLI implements it with its signal handler, which exits with 128 + the signal's number after the
/// cleanup; a test uses a cleanup that only records.
///
/// The session calls `stopOnInterruption` first, before the backend starts, then `run` at the end of
/// the run or when the backend could not start. `run` may be called more than once: the actions run once.
///
/// ```swift
/// actor RecordingCleanup: RunSessionCleanup {
///     private var actions: [@Sendable () async -> Void] = []
///     private(set) var ran = false
///
///     func add(_ action: @escaping @Sendable () async -> Void) { actions.append(action) }
///     func run() async {
///         guard !ran else { return }
///         ran = true
///         for action in actions.reversed() { await action() }
///     }
///     nonisolated func stopOnInterruption(
///         onSignal: @escaping @Sendable (Int32) async -> Void, beforeExit: @escaping @Sendable (Int32) async -> Void
///     ) throws {}  // no signals in a test
/// }
/// ```
public protocol RunSessionCleanup: Sendable {
    /// Stops what the run started, once; a second call waits for the first to finish.
    func run() async
    /// From now on, an interruption (signal number `n`) calls `onSignal(n)`, runs the cleanup, calls
    /// `beforeExit(n)` and ends the process (the CLI: exit 128 + n). Throws when it cannot be armed.
    func stopOnInterruption(
        onSignal: @escaping @Sendable (Int32) async -> Void, beforeExit: @escaping @Sendable (Int32) async -> Void
    ) throws
}
