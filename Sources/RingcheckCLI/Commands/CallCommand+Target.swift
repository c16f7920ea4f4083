import Conformance
import Foundation
import PushMocks

extension CallCommand {
    /// `call --target FILE`: starts the mocks (and the backend, when the file's lifecycle says how) as
    /// `run --target` does, places the call, and stops what it started.
    func runTarget(_ path: String) async throws -> ExitCode {
        // The call plays two users only: the file needs no third one.
        let file = try FileTarget.load(path, users: .call(caller: callerName, callee: calleeName))
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("ringcheck-call-\(getpid())/backend.log").path
        return try await placeCall(embedded: false, startFailure: "cannot reach the target") { cleanup in
            // The mock settings are printed unless the output is NDJSON.
            let backend = try await FileTarget.start(file, announce: !json, log: log, cleanup: cleanup)
            // Kept after the call, for a look at what the backend did: say where (stderr beside NDJSON).
            if let log = backend.target.backendLog {
                if json {
                    Console.error("ringcheck call: backend output in \(log)")
                } else {
                    Console.out("Backend output: \(log)")
                }
            }
            return (backend.target, backend.mocks)
        }
    }

    /// Starts a backend with `start`, places the call on it, and stops what was started, also when
    /// starting fails (a configuration problem is rethrown: exit 2; anything else is inconclusive).
    func placeCall(
        embedded: Bool, startFailure: String, _ start: (RunCleanup) async throws -> (Target, MockStack)
    ) async throws -> ExitCode {
        let cleanup = RunCleanup()
        let signals = CallSignals(command: "call")
        let watching = signals.watch(cleanup: cleanup)
        guard
            let (target, mocks) = try await signals.starting(
                cleanup: cleanup, failure: startFailure, { try await start(cleanup) })
        else { return .inconclusive }
        let code = await call(
            target: target, mocks: mocks, embedded: embedded, signals: watching ? signals : nil)
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
