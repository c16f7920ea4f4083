import Conformance
import Foundation
import PushMocks
import ReferenceBackend

/// Callx's embedded reference backend (`CallxReferenceKit`): it keeps its data in a SQLite file in a
/// temporary folder, so the `restartBackend` step can restart it without losing calls, events or pending
/// pushes. It runs in process, or (`--reference-process`) as a `ringcheck serve-reference` child started,
/// restarted and stopped through `BackendLifecycle` as a target's backend would be.
extension EmbeddedReference {
    /// Starts mocks and backend with accounts for `runs` runs of `userNames`, the backend logging to
    /// `log` (a fresh file); as a child process when `asChildProcess`. Both are stopped by `cleanup`.
    package static func start(
        defects: Set<CallxDefect>, runs: Int, userNames: [String], log: String? = nil, asChildProcess: Bool = false,
        restartInstance: Bool = false, cleanup: any CleanupRegistry
    ) async throws -> EmbeddedReference {
        return try await start(
            defects: defects, users: users(runs: runs, userNames: userNames, handlePrefix: "callx", BackendUser.init),
            ringSeconds: ringSeconds, accounts: { account($0, run: $1) }, log: log,
            asChildProcess: asChildProcess, restartInstance: restartInstance, cleanup: cleanup)
    }

    /// Starts mocks and backend knowing `users`, with calls that ring `ringSeconds`; `accounts` is
    /// how the target names them (see `Target.accounts`). The backend logs to `log` when given (the
    /// target's `backendLog`, so CALLX-SEC-3 can be judged). With `restartInstance`, a second instance
    /// wired to the same mocks becomes `restartTarget` (logging to `restartLog(log)`). All are stopped by
    /// `cleanup`.
    package static func start(
        defects: Set<CallxDefect>, users: [BackendUser], ringSeconds: Int,
        accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?, log: String? = nil,
        asChildProcess: Bool = false, eventRetention: Int = EmbeddedReference.eventRetention,
        restartInstance: Bool = false, cleanup: any CleanupRegistry
    ) async throws -> EmbeddedReference {
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        let (main, lifecycle) = try await start(
            mocks: mocks, defects: defects, users: users, ringSeconds: ringSeconds, accounts: accounts, log: log,
            asChildProcess: asChildProcess, eventRetention: eventRetention, cleanup: cleanup)
        guard restartInstance else { return EmbeddedReference(mocks: mocks, target: main, lifecycle: lifecycle) }
        var (second, _) = try await start(
            mocks: mocks, defects: defects, users: users, ringSeconds: ringSeconds, accounts: accounts,
            log: log.map(restartLog), asChildProcess: asChildProcess, eventRetention: eventRetention, cleanup: cleanup)
        second.name += " (second instance, for the scenarios that restart it)"
        return EmbeddedReference(mocks: mocks, target: main, lifecycle: lifecycle, restartTarget: second)
    }

    /// Starts one backend instance wired to `mocks` and describes it as a target.
    private static func start(
        mocks: MockStack, defects: Set<CallxDefect>, users: [BackendUser], ringSeconds: Int,
        accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?, log: String?,
        asChildProcess: Bool, eventRetention: Int, cleanup: any CleanupRegistry
    ) async throws -> (Target, BackendLifecycle?) {
        if let log {
            let dir = (log as NSString).deletingLastPathComponent
            if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            try? FileManager.default.removeItem(atPath: log)
        }
        let name = Self.name("embedded reference backend", defects: defects)
        var capabilities: Set<Capability> = [
            .faults, .sandbox, .shortRing, .pushSignals, .mediaSession, .eventRetention, .restart, .answerEndpoint,
            .idempotency,
        ]
        if log != nil { capabilities.insert(.backendLog) }
        let appId = mocks.providers.credentials.bundleID
        if asChildProcess, let log {
            let child = try await ReferenceProcess.start(
                mocks: mocks.settings, users: users, defects: defects, ringSeconds: ringSeconds,
                eventRetention: eventRetention, log: log, cleanup: cleanup)
            var target = Target(
                name: name + " as a child process", baseURL: child.baseURL, accounts: accounts,
                capabilities: capabilities, appId: appId, eventPageLimit: 1, eventRetention: eventRetention)
            target.restart(through: child.lifecycle)
            target.backendLog = log
            target.shortRingField = "ringSeconds"
            return (target, child.lifecycle)
        }
        let providers = mocks.settings.providerSettings(bundleID: appId)
        let options = ReferenceBackendServer.Options(
            configuration: ReferenceBackendConfiguration(
                ringSeconds: ringSeconds, eventRetention: eventRetention, defects: defects),
            users: UserDirectory(users),
            retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000, idlePollMs: 250),
            sweepIntervalMs: 100, logFile: log)
        let backend = try RestartableReference(options: options, providers: providers)
        await cleanup.add { await backend.stop() }
        try backend.start()
        var target = Target(
            name: name, baseURL: backend.baseURL, accounts: accounts, capabilities: capabilities, appId: appId,
            eventPageLimit: 1, eventRetention: eventRetention)
        target.restart = { try await backend.restart() }
        target.backendLog = log
        target.shortRingField = "ringSeconds"
        return (target, nil)
    }
}
