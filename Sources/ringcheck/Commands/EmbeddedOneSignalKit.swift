import Conformance
import PushMocks
import ReferenceBackend

/// The mocks and the embedded OneSignal kit server wired to the mock OneSignal: what `ringcheck run --profile
/// onesignal` tests when no `--target` is given. Two instances run: one configured with the mock's two apps (the
/// target), and one started with the API URL and CA file but without the app IDs and keys
/// (`Target.unconfiguredBaseURL`, the `unconfigured` capability).
enum EmbeddedOneSignalKit {
    /// The `--defect` values of the kit server.
    static let defectNames: [String] = OneSignalKitDefect.allCases.map(\.name)

    /// Starts mocks and both kit instances with the named defects; all are stopped by `cleanup`. The kit takes
    /// any user ID, so `runs` and `userNames` need no accounts on its side. An unknown defect name is a usage
    /// error that lists the valid ones.
    static func start(defects names: [String], runs: Int, userNames: [String], cleanup: RunCleanup) async throws
        -> EmbeddedReference
    {
        let (defects, unknown) = OneSignalKitDefect.parse(names)
        if !unknown.isEmpty {
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))' for the onesignal profile; the defects are: "
                    + defectNames.joined(separator: ", "))
        }
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        guard let mock = mocks.providers.oneSignal,
            let url = mocks.settings.extra.first(where: { $0.name == "RINGCHECK_ONESIGNAL_URL" })?.value
        else {
            throw ConfigurationError(message: "the OneSignal mock is not running")
        }
        let configured = OneSignalKitConfiguration(
            standardApp: OneSignalKitApp(id: mock.standardApp.appID, key: mock.standardApp.apiKey),
            voipApp: OneSignalKitApp(id: mock.voipApp.appID, key: mock.voipApp.apiKey), apiURL: url,
            caFile: mocks.settings.caFile, defects: defects)
        var unconfigured = configured
        unconfigured.standardApp = nil
        unconfigured.voipApp = nil
        let kit = try OneSignalKitServer(options: .init(configuration: configured))
        await cleanup.add { await kit.stop() }
        try kit.start()
        let off = try OneSignalKitServer(options: .init(configuration: unconfigured))
        await cleanup.add { await off.stop() }
        try off.start()
        let name =
            "embedded OneSignal kit server"
            + (defects.isEmpty ? "" : " (defects: \(defects.map(\.name).sorted().joined(separator: ", ")))")
        var target = Target(
            name: name, baseURL: kit.baseURL, accounts: { EmbeddedReference.account($0, run: $1) },
            capabilities: [.faults, .unconfigured], appId: mocks.providers.credentials.bundleID)
        target.unconfiguredBaseURL = off.baseURL
        return EmbeddedReference(mocks: mocks, target: target)
    }
}
