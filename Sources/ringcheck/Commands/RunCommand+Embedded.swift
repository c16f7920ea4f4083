import Conformance
import Foundation
import PushMocks
import ReferenceBackend

/// The mocks and the embedded reference backend wired to them: what `ringcheck run` tests when no
/// `--target` is given.
struct EmbeddedReference {
    let mocks: MockStack
    let server: ReferenceBackendServer
    let target: Target

    /// Ring time short enough that expiry scenarios finish quickly, long enough for every other wait.
    static let ringSeconds = 4

    /// The account that plays scenario user `name` in run `run`.
    static func account(_ name: String, run: Int) -> TargetUser {
        TargetUser(userId: "u\(run)-\(name)", bearerToken: "token-u\(run)-\(name)")
    }

    /// Starts mocks and backend with accounts for `runs` runs of `userNames`.
    static func start(defects: Set<Defect>, runs: Int, userNames: [String]) async throws -> EmbeddedReference {
        let mocks = try MockStack.start()
        do {
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
            let s = mocks.settings
            let providers = PushProviderSettings(
                apnsURL: s.apnsURL, apnsSandboxURL: s.apnsSandboxURL, fcmURL: s.fcmURL, oauthTokenURL: s.oauthTokenURL,
                caFile: s.caFile, apnsKeyFile: s.apnsKeyFile, apnsKeyID: s.apnsKeyID, apnsTeamID: s.apnsTeamID,
                apnsBundleID: mocks.providers.credentials.bundleID, fcmServiceAccountFile: s.fcmServiceAccountFile,
                fcmProjectID: s.fcmProjectID)
            let options = ReferenceBackendServer.Options(
                configuration: ReferenceBackendConfiguration(ringSeconds: ringSeconds, defects: defects),
                users: UserDirectory(users),
                retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000, idlePollMs: 250),
                sweepIntervalMs: 100)
            let server = try ReferenceBackendServer(options: options, providers: providers)
            try server.start()
            let name =
                "embedded reference backend"
                + (defects.isEmpty ? "" : " (defects: \(defects.map(\.name).sorted().joined(separator: ", ")))")
            let target = Target(
                name: name, baseURL: server.baseURL, accounts: { account($0, run: $1) },
                capabilities: [
                    .faults, .sandbox, .shortRing, .pushSignals, .mediaSession, .answerEndpoint, .idempotency,
                ],
                appId: mocks.providers.credentials.bundleID, eventPageLimit: 1)
            return EmbeddedReference(mocks: mocks, server: server, target: target)
        } catch {
            mocks.stop()
            throw error
        }
    }

    func stop() async {
        await server.stop()
        mocks.stop()
    }
}
