import Conformance
import PushMocks
import ReferenceBackend
import Signing

/// The mocks and the embedded wake-up reference backend wired to them: what `ringcheck run --profile
/// dialstack` tests when no `--target` is given. A random webhook secret is given to both the backend
/// and `Target.webhook`; tokens live in the backend's memory.
enum EmbeddedWakeUpReference {
    /// The `--defect` values of the wake-up reference backend.
    static let defectNames: [String] = WakeUpDefect.allCases.map(\.name)

    /// Starts mocks and backend with the named defects and accounts for `runs` runs of `userNames`
    /// (`u<run>-<name>`, bearer `token-u<run>-<name>`); both are stopped by `cleanup`. An unknown defect
    /// name is a usage error that lists the valid ones.
    static func start(defects names: [String], runs: Int, userNames: [String], cleanup: RunCleanup) async throws
        -> EmbeddedReference
    {
        let (defects, unknown) = WakeUpDefect.parse(names)
        if !unknown.isEmpty {
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))' for the dialstack profile; the defects are: "
                    + defectNames.joined(separator: ", "))
        }
        var users: [BackendUser] = []
        for run in 0..<max(runs, 1) {
            for name in userNames {
                let a = EmbeddedReference.account(name, run: run)
                users.append(
                    BackendUser(
                        userId: a.userId, displayName: "User \(name.uppercased()) \(run)",
                        handle: "dialstack:\(a.userId)", bearerToken: a.bearerToken))
            }
        }
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        let appId = mocks.providers.credentials.bundleID
        let providers = mocks.settings.providerSettings(bundleID: appId)
        let secret = "whsec_" + SecureRandom.alphanumeric(32, uppercaseOnly: false)
        let configuration = WakeUpConfiguration(webhookSecret: secret, defects: defects)
        let backend = try WakeUpServer(
            options: .init(
                configuration: configuration, users: UserDirectory(users),
                retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000)),
            providers: providers)
        await cleanup.add { await backend.stop() }
        try backend.start()
        let name =
            "embedded wake-up reference backend"
            + (defects.isEmpty ? "" : " (defects: \(defects.map(\.name).sorted().joined(separator: ", ")))")
        var target = Target(
            name: name, baseURL: backend.baseURL, accounts: { EmbeddedReference.account($0, run: $1) },
            capabilities: [.faults, .sandbox], appId: appId)
        target.webhook = WebhookEndpoint(path: configuration.webhookPath, secret: secret)
        return EmbeddedReference(mocks: mocks, target: target)
    }
}
