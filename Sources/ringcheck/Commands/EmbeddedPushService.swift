import Conformance
import PushMocks
import ReferenceBackend

/// The mocks and the embedded reference push service wired to them: what `ringcheck run --profile
/// push-service` tests when no `--target` is given. One app with a random App ID and `psk_` key, given
/// to both the service and `Target.serviceApp`; the queue lives in the service's in-memory SQLite.
enum EmbeddedPushService {
    /// The `--defect` values of the reference push service.
    static let defectNames: [String] = PushServiceDefect.allCases.map(\.name)

    /// Starts mocks and service with the named defects; scenario user `name` of run `run` is the
    /// external ID `u<run>-<name>` (devices register for it, notifications target it). Both are
    /// stopped by `cleanup`. An unknown defect name is a usage error that lists the valid ones.
    static func start(defects names: [String], runs: Int, userNames: [String], cleanup: RunCleanup) async throws
        -> EmbeddedReference
    {
        let (defects, unknown) = PushServiceDefect.parse(names)
        if !unknown.isEmpty {
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))' for the push-service profile; the defects are: "
                    + defectNames.joined(separator: ", "))
        }
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        let bundleID = mocks.providers.credentials.bundleID
        let providers = mocks.settings.providerSettings(bundleID: bundleID)
        let configuration = PushServiceConfiguration.generated(bundleID: bundleID, defects: defects)
        let service = try PushServiceServer(
            options: .init(
                configuration: configuration,
                retryPolicy: PushRetryPolicy(maxAttempts: 4, initialBackoffMs: 300, maxBackoffMs: 2_000)),
            providers: providers)
        await cleanup.add { await service.stop() }
        try service.start()
        let name =
            "embedded reference push service"
            + (defects.isEmpty ? "" : " (defects: \(defects.map(\.name).sorted().joined(separator: ", ")))")
        var target = Target(
            name: name, baseURL: service.baseURL,
            accounts: { name, run in TargetUser(userId: "u\(run)-\(name)", authHeaders: [:]) },
            capabilities: [.faults, .sandbox], appId: bundleID)
        target.serviceApp = ServiceApp(appId: configuration.appId, apiKey: configuration.apiKey)
        return EmbeddedReference(mocks: mocks, target: target)
    }
}
