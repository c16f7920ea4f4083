import PushMocks

/// A backend started for a run (a target file's lifecycle, a reference started as a child process): its stop
/// registered before the start begins, its restart offered to the scenarios.
///
/// ```swift
/// let lifecycle = try await BackendLifecycle.startForRun(configuration, mocks: mocks.settings, cleanup: cleanup)
/// target.restart(through: lifecycle)
/// ```
extension BackendLifecycle {
    /// Starts a backend for a run. Its stop is handed to `cleanup` before the start begins, so a Ctrl-C
    /// or a failure during a slow start still stops what was started.
    package static func startForRun(
        _ configuration: BackendLifecycleConfiguration, mocks: MockSettings, cleanup: any CleanupRegistry
    ) async throws -> BackendLifecycle {
        let lifecycle = BackendLifecycle(configuration, mocks: mocks)
        await cleanup.add { await lifecycle.stop() }
        try await lifecycle.start()
        return lifecycle
    }
}

extension Target {
    /// Lets scenarios restart the backend through `lifecycle` when it can (a `restart` or a `start`
    /// command): sets the restart hook and the `restart` capability.
    package mutating func restart(through lifecycle: BackendLifecycle) {
        guard lifecycle.configuration.canRestart else { return }
        restart = { try await lifecycle.restart() }
        capabilities.insert(.restart)
    }
}
