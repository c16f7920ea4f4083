import Conformance
import Foundation

extension CallCommand {
    /// `call --target FILE`: starts the mocks (and the backend, when the file's lifecycle says how) as
    /// `run --target` does, places the call, and stops what it started.
    func runTarget(_ path: String) async throws -> ExitCode {
        let file = try FileTarget.load(path)
        let cleanup = RunCleanup()
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("ringcheck-call-\(getpid())/backend.log").path
        let backend: RunBackend
        do {
            // The mock settings are printed unless the output is NDJSON.
            backend = try await FileTarget.start(file, announce: !json, log: log, cleanup: cleanup)
        } catch let error as ConfigurationError {
            await cleanup.run()
            throw error
        } catch {
            await cleanup.run()
            Console.error("ringcheck call: \(error)")
            return .inconclusive
        }
        let code = await call(target: backend.target, mocks: backend.mocks, embedded: false)
        await cleanup.run()
        return code
    }

    /// The account `name` names: a role of the target file (`a`, `b`, `c`, …) or an account's user ID.
    func account(_ name: String, of target: Target) -> (role: String, account: TargetUser)? {
        if let user = target.accounts(name, 0) { return (name, user) }
        for role in target.roles {
            if let user = target.accounts(role, 0), user.userId == name { return (role, user) }
        }
        return nil
    }
}
