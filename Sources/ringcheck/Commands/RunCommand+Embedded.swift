import Conformance
import Foundation
import PushMocks
import ReferenceBackend

/// The mocks and the embedded reference backend wired to them: what `ringcheck run` tests when no
/// `--target` is given. The backend keeps its data in a SQLite file in a temporary folder, so the
/// `restartBackend` step can restart it without losing calls, events or pending pushes. It runs in
/// process, or (`--reference-process`) as a `ringcheck serve-reference` child started, restarted and
/// stopped through `BackendLifecycle` as a target's backend would be.
struct EmbeddedReference {
    let mocks: MockStack
    let target: Target

    /// Ring time short enough that expiry scenarios finish quickly, long enough for every other wait.
    static let ringSeconds = 4
    /// Events kept per feed: small enough that the retention-gap scenario overflows it quickly, larger
    /// than any other scenario's feed.
    static let eventRetention = 40

    /// The account that plays scenario user `name` in run `run`.
    static func account(_ name: String, run: Int) -> TargetUser {
        TargetUser(userId: "u\(run)-\(name)", bearerToken: "token-u\(run)-\(name)")
    }

    /// Starts mocks and backend with accounts for `runs` runs of `userNames`; with `processLog` the
    /// backend is a child process writing to that file. Both are stopped by `cleanup`.
    static func start(
        defects: Set<Defect>, runs: Int, userNames: [String], processLog: String? = nil, cleanup: RunCleanup
    ) async throws -> EmbeddedReference {
        var users: [BackendUser] = []
        for run in 0..<max(runs, 1) {
            for name in userNames {
                let a = account(name, run: run)
                users.append(
                    BackendUser(
                        userId: a.userId, displayName: "User \(name.uppercased()) \(run)",
                        handle: "callx:\(a.userId)", bearerToken: a.bearerToken))
            }
        }
        return try await start(
            defects: defects, users: users, ringSeconds: ringSeconds, accounts: { account($0, run: $1) },
            processLog: processLog, cleanup: cleanup)
    }

    /// Starts mocks and backend knowing `users`, with calls that ring `ringSeconds`; `accounts` is
    /// how the target names them (see `Target.accounts`). Both are stopped by `cleanup`.
    static func start(
        defects: Set<Defect>, users: [BackendUser], ringSeconds: Int,
        accounts: @escaping @Sendable (_ name: String, _ run: Int) -> TargetUser?, processLog: String? = nil,
        cleanup: RunCleanup
    ) async throws -> EmbeddedReference {
        let mocks = try MockStack.start()
        await cleanup.add { mocks.stop() }
        let name =
            "embedded reference backend"
            + (defects.isEmpty ? "" : " (defects: \(defects.map(\.name).sorted().joined(separator: ", ")))")
        let capabilities: Set<Capability> = [
            .faults, .sandbox, .shortRing, .pushSignals, .mediaSession, .eventRetention, .restart,
        ]
        let appId = mocks.providers.credentials.bundleID
        if let processLog {
            let child = try await ReferenceProcess.start(
                mocks: mocks, users: users, defects: defects, ringSeconds: ringSeconds,
                eventRetention: eventRetention, log: processLog, cleanup: cleanup)
            var target = Target(
                name: name + " as a child process", baseURL: child.baseURL, accounts: accounts,
                capabilities: capabilities, appId: appId, eventPageLimit: 1, eventRetention: eventRetention)
            target.restart(through: child.lifecycle)
            return EmbeddedReference(mocks: mocks, target: target)
        }
        let s = mocks.settings
        let providers = PushProviderSettings(
            apnsURL: s.apnsURL, apnsSandboxURL: s.apnsSandboxURL, fcmURL: s.fcmURL, oauthTokenURL: s.oauthTokenURL,
            caFile: s.caFile, apnsKeyFile: s.apnsKeyFile, apnsKeyID: s.apnsKeyID, apnsTeamID: s.apnsTeamID,
            apnsBundleID: appId, fcmServiceAccountFile: s.fcmServiceAccountFile, fcmProjectID: s.fcmProjectID)
        let options = ReferenceBackendServer.Options(
            configuration: ReferenceBackendConfiguration(
                ringSeconds: ringSeconds, eventRetention: eventRetention, defects: defects),
            users: UserDirectory(users),
            retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000, idlePollMs: 250),
            sweepIntervalMs: 100)
        let backend = try RestartableReference(options: options, providers: providers)
        await cleanup.add { await backend.stop() }
        try backend.start()
        var target = Target(
            name: name, baseURL: backend.baseURL, accounts: accounts, capabilities: capabilities, appId: appId,
            eventPageLimit: 1, eventRetention: eventRetention)
        target.restart = { try await backend.restart() }
        return EmbeddedReference(mocks: mocks, target: target)
    }
}
