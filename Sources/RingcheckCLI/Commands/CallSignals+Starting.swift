import Conformance

extension CallSignals {
    /// Starts what the command drives (the mocks and the backend) under this watcher. A configuration or usage
    /// error is cleaned up and thrown (exit 2); any other failure, unless a signal caused it
    /// (`yieldToInterruption`, which then never returns), is cleaned up and printed as
    /// `ringcheck COMMAND: FAILURE: error`, and nil is returned: the command exits inconclusive.
    ///
    /// ```swift
    /// guard let started = try await signals.starting(cleanup: cleanup, failure: "cannot start", { try await start() })
    /// else { return .inconclusive }
    /// ```
    func starting<Started>(
        cleanup: RunCleanup, failure: String, _ start: () async throws -> Started
    ) async throws -> Started? {
        do { return try await start() } catch let error as ConfigurationError {
            await cleanup.run()
            throw error
        } catch let error as UsageError {
            await cleanup.run()
            throw error
        } catch {
            await yieldToInterruption()
            await cleanup.run()
            Console.error("ringcheck \(command): \(failure): \(error)")
            return nil
        }
    }
}
