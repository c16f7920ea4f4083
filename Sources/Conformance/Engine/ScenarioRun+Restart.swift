import Foundation
import HTTP

extension ScenarioRun {
    // MARK: restartBackend

    /// Restarts the backend through the target's hook and waits until it is ready again. A restart that
    /// fails stops the scenario as a harness error: the backend was not judged.
    func restartBackend(step: ScenarioStep) async throws {
        guard let restart = engine.target.restart else {
            throw HarnessStop(message: "\(step.path): the target cannot restart its backend")
        }
        let before = elapsedMs
        backendRestartOrder = ArrivalOrder.next()
        do { try await restart() } catch is CancellationError { throw CancellationError() } catch {
            throw HarnessStop(message: "\(step.path): restarting the backend failed: \(error)")
        }
        note(String(format: "backend restarted and ready again after %.0f ms", elapsedMs - before))
    }
}
