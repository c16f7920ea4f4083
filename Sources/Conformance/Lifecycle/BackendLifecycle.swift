import Foundation
import Processes
import PushMocks

#if canImport(Glibc)
    import Glibc
#endif

/// Starts the backend under test, waits until it is ready, restarts it for the scenarios that need
/// it, and stops what it started: at the end of a run, after a failure, and on Ctrl-C (the CLI calls
/// `stop()` from its signal handler).
///
/// Processes are spawned with `posix_spawn` in a process group of their own (`ChildProcess`), so a
/// stop by signal reaches whatever the start command launched; exits are awaited on a thread of
/// their own (`ExitWatcher`), never on the cooperative pool. Their output goes to `logFile`.
public actor BackendLifecycle {
    nonisolated public let configuration: BackendLifecycleConfiguration
    /// The environment added to every command (the mocks' settings and the configuration's own).
    nonisolated public let environment: [String: String]
    let log: BackendLog
    /// The process `start` launched and still owned.
    private var running: ExitWatcher?
    /// A `start` command ran and what it started has not been stopped.
    private var started = false
    /// Set by `stop()` at the end: nothing is started any more (a Ctrl-C during a restart wins).
    private var closed = false

    public init(_ configuration: BackendLifecycleConfiguration, mocks: MockSettings?) {
        self.configuration = configuration.filling(mocks)
        environment = self.configuration.commandEnvironment(mocks: mocks)
        log = BackendLog(path: configuration.logFile)
    }

    /// The started process's ID while it runs.
    public var pid: pid_t? { running.flatMap { $0.status == nil ? $0.child.pid : nil } }

    /// Runs the `start` command (if any) and waits for `ready` (if any).
    public func start() async throws {
        guard !closed else { throw BackendLifecycleError("the backend is being stopped; not starting it") }
        if let command = configuration.start {
            let watcher = try spawn(command, what: "start")
            running = watcher
            started = true
            do {
                try await waitUntilReady(watching: watcher, command: command)
            } catch {
                await stopProcess(watcher)
                running = nil
                started = false
                throw error
            }
        } else {
            try await waitUntilReady(watching: nil, command: nil)
        }
    }

    /// Restarts the backend: the `restart` command then `ready`, or a stop and a start.
    public func restart() async throws {
        guard !closed else { throw BackendLifecycleError("the backend is being stopped; not restarting it") }
        if let command = configuration.restart {
            try await runToCompletion(command, what: "restart")
            // The command may well end the process `start` launched and start another: only `ready` counts.
            try await waitUntilReady(watching: nil, command: command)
            return
        }
        guard configuration.start != nil else {
            throw BackendLifecycleError(
                "the target has neither a restart nor a start command: ringcheck cannot restart it")
        }
        try await stopBackend()
        try await start()
    }

    /// Stops what ringcheck started, once; later calls do nothing. Never throws: a failing stop command
    /// is followed by signals to the started process group, and problems are returned as text.
    @discardableResult
    public func stop() async -> String? {
        if closed { return nil }
        closed = true
        do {
            try await stopBackend()
            return nil
        } catch {
            return "\(error)"
        }
    }

    // MARK: Stopping

    /// The `stop` command, then signals to whatever `start` launched and still runs.
    private func stopBackend() async throws {
        guard started else { return }
        started = false
        var problem: Error?
        if let command = configuration.stop {
            do { try await runToCompletion(command, what: "stop") } catch { problem = error }
        }
        if let watcher = running {
            // After a stop command the process gets the grace period to leave on its own first.
            if configuration.stop != nil, watcher.status == nil {
                _ = await watcher.exited(within: configuration.stopGracePeriod)
            }
            await stopProcess(watcher)
            running = nil
        }
        if let problem { throw problem }
    }

    /// SIGTERM to the process group, SIGKILL after the grace period; then the same for any member of
    /// the group still alive after the leader ended (a shell's background children).
    func stopProcess(_ watcher: ExitWatcher) async {
        let child = watcher.child
        if watcher.status == nil {
            child.signalGroup(SIGTERM)
            if await watcher.exited(within: configuration.stopGracePeriod) == nil {
                child.signalGroup(SIGKILL)
                _ = await watcher.exited()
            }
        }
        // The group ID stays reserved while members live, so this cannot reach an unrelated process.
        guard Self.groupAlive(child.pid) else { return }
        child.signalGroup(SIGTERM)
        let deadline = ContinuousClock.now + configuration.stopGracePeriod
        while Self.groupAlive(child.pid) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if Self.groupAlive(child.pid) { child.signalGroup(SIGKILL) }
    }

    static func groupAlive(_ pgid: pid_t) -> Bool { kill(-pgid, 0) == 0 }

    // MARK: Commands

    /// Spawns `command` with its output to the log.
    func spawn(_ command: BackendCommand, what: String) throws -> ExitWatcher {
        let out = try log.open(for: "\(what): \(command)")
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(out)
            if null >= 0 { close(null) }
        }
        do {
            let child = try ChildProcess(
                command.argv, stdin: null, stdout: out, stderr: out, environment: environment,
                workingDirectory: configuration.workingDirectory)
            return ExitWatcher(child)
        } catch {
            throw BackendLifecycleError(
                "cannot run the \(what) command '\(command)': \(error)\(inDirectory)")
        }
    }

    private var inDirectory: String { configuration.workingDirectory.map { " (in \($0))" } ?? "" }

    /// Runs a `stop` or `restart` command and waits for it; it must exit 0 within `commandTimeout`.
    func runToCompletion(_ command: BackendCommand, what: String) async throws {
        let watcher = try spawn(command, what: what)
        guard let status = await watcher.exited(within: configuration.commandTimeout) else {
            await stopProcess(watcher)
            throw BackendLifecycleError(
                "the \(what) command '\(command)' did not finish within \(configuration.commandTimeout); "
                    + "ringcheck killed it; \(log.reference)")
        }
        guard status.exitCode == 0 else {
            throw BackendLifecycleError("the \(what) command '\(command)' \(status); \(log.reference)")
        }
    }
}
