import Conformance
import Foundation
import PushMocks
import ReferenceBackend

/// The mocks and the embedded reference backend wired to them: what `ringcheck run` tests when no
/// `--target` is given. The backend keeps its data in a SQLite file in a temporary folder, so the
/// `restartBackend` step can restart it without losing calls, events or pending pushes. It runs in
/// process, or (`--reference-process`) as a `ringcheck serve-reference` child started, restarted and
/// stopped through `BackendLifecycle` as a target's backend would be.
///
/// A second instance of the backend (its own database, port and log, the same mocks and accounts)
/// serves the scenarios that restart theirs, so they run beside the others instead of after them all.
struct EmbeddedReference {
    let mocks: MockStack
    let target: Target
    /// The child process's lifecycle when the backend runs as one (`ringcheck load` watches its CPU and memory).
    var lifecycle: BackendLifecycle? = nil
    /// The second instance, for the scenarios that restart the backend (`Scenario.runsAlone`): a
    /// restart here disturbs no other scenario. Nil when the caller asked for one instance.
    var restartTarget: Target? = nil

    /// Ring time of a call that is not about expiry: long enough that no scenario's call expires before
    /// its answer however busy the machine is. Scenarios that wait for expiry (`needs: [shortRing]`) ask
    /// for `Target.shortRingSeconds` through the create body's `ringSeconds` (`Target.shortRingField`).
    static let ringSeconds = 60
    /// Events kept per feed: small enough that the retention-gap scenario overflows it quickly, larger
    /// than any other scenario's feed.
    static let eventRetention = 40

    /// The backend users that play `userNames` in `runs` runs (`account`), with handles `<handlePrefix>:<userId>`.
    static func users(runs: Int, userNames: [String], handlePrefix: String) -> [BackendUser] {
        var users: [BackendUser] = []
        for run in 0..<max(runs, 1) {
            for name in userNames {
                let a = account(name, run: run)
                users.append(
                    BackendUser(
                        userId: a.userId, displayName: "User \(name.uppercased()) \(run)",
                        handle: "\(handlePrefix):\(a.userId)", bearerToken: a.bearerToken))
            }
        }
        return users
    }

    /// A target's name: `base`, and the defects switched on, by name.
    static func name(_ base: String, defects: Set<some ReferenceDefect>) -> String {
        base + (defects.isEmpty ? "" : " (defects: \(defects.map(\.name).sorted().joined(separator: ", ")))")
    }

    /// The account that plays scenario user `name` in run `run`.
    static func account(_ name: String, run: Int) -> TargetUser {
        TargetUser(userId: "u\(run)-\(name)", bearerToken: "token-u\(run)-\(name)")
    }

    /// Starts mocks and backend with accounts for `runs` runs of `userNames`, the backend logging to
    /// `log` (a fresh file); as a child process when `asChildProcess`. Both are stopped by `cleanup`.
    static func start(
        defects: Set<CallxDefect>, runs: Int, userNames: [String], log: String? = nil, asChildProcess: Bool = false,
        restartInstance: Bool = false, cleanup: RunCleanup
    ) async throws -> EmbeddedReference {
        return try await start(
            defects: defects, users: users(runs: runs, userNames: userNames, handlePrefix: "callx"),
            ringSeconds: ringSeconds, accounts: { account($0, run: $1) }, log: log,
            asChildProcess: asChildProcess, restartInstance: restartInstance, cleanup: cleanup)
    }

    /// Starts mocks and backend knowing `users`, with calls that ring `ringSeconds`; `accounts` is
    /// how the target names them (see `Target.accounts`). The backend logs to `log` when given (the
    /// target's `backendLog`, so CALLX-SEC-3 can be judged). With `restartInstance`, a second instance
    /// wired to the same mocks becomes `restartTarget` (logging to `restartLog(log)`). All are stopped by
    /// `cleanup`.
    static func start(
        defects: Set<CallxDefect>, users: [BackendUser], ringSeconds: Int,
        accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?, log: String? = nil,
        asChildProcess: Bool = false, eventRetention: Int = EmbeddedReference.eventRetention,
        restartInstance: Bool = false, cleanup: RunCleanup
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

    /// The log of the second instance beside `log`: `backend.log` → `backend-restart-instance.log`.
    static func restartLog(_ log: String) -> String {
        let base = (log as NSString).deletingPathExtension
        let ext = (log as NSString).pathExtension
        return base + "-restart-instance" + (ext.isEmpty ? "" : "." + ext)
    }

    /// Starts one backend instance wired to `mocks` and describes it as a target.
    private static func start(
        mocks: MockStack, defects: Set<CallxDefect>, users: [BackendUser], ringSeconds: Int,
        accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?, log: String?,
        asChildProcess: Bool, eventRetention: Int, cleanup: RunCleanup
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
