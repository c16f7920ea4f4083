import Conformance
import PushMocks

extension BackendLifecycle {
    /// Starts a backend for a run. Its stop is handed to `cleanup` before the start begins, so a Ctrl-C
    /// or a failure during a slow start still stops what was started.
    static func startForRun(
        _ configuration: BackendLifecycleConfiguration, mocks: MockSettings, cleanup: RunCleanup
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
    mutating func restart(through lifecycle: BackendLifecycle) {
        guard lifecycle.configuration.canRestart else { return }
        restart = { try await lifecycle.restart() }
        capabilities.insert(.restart)
    }
}
