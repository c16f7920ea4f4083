import Conformance
import Foundation
import PushMocks
import ReferenceBackend

/// The onesignal reference: an app server sending through OneSignal as the kit does (the seed's
/// `sendPushToUser`, `sendPushBroadcast`, `sendVoipPushToUser` behind `POST /push/{user,broadcast,voip}`),
/// configured by the seed's `ONESIGNAL_*` variables. Embedded, two instances run: one configured with the
/// mock OneSignal's two apps (the target), and one with the API URL and CA file but without the app IDs and
/// keys (`Target.unconfiguredBaseURL`, the `unconfigured` capability).
package struct OneSignalReferenceKit: ReferenceKit {
    package typealias Defect = OneSignalDefect
    typealias V = OneSignalConfiguration.Variable

    package init() {}

    package var profile: any Profile { OneSignalProfile() }
    package let title = "the OneSignal kit server"
    package let helpIntro = """
        PROFILE onesignal (--profile onesignal): an app server sending through OneSignal, as the kit does.
        POST /push/user {userId, title, body, data, options}, POST /push/broadcast {title, body, data,
        options} and POST /push/voip {userId, data, options} answer 200 {"delivered": bool} (recipients >= 1);
        options: priority, ttl, contentAvailable, apnsPushTypeOverride, collapseId. Settings: \(V.appId),
        \(V.apiKey), \(V.voipAppId), \(V.voipApiKey), \(V.apiURL) (default
        \(OneSignalConfiguration.defaultAPIURL)), \(V.caFile); without the app ID and key nothing is sent
        (delivered false). With `ringcheck mocks`: ONESIGNAL_API_URL=$RINGCHECK_ONESIGNAL_URL,
        ONESIGNAL_CA_FILE=$RINGCHECK_CA_FILE and the apps from RINGCHECK_ONESIGNAL_*. --mock-settings fills every
        unset ONESIGNAL_* from the mocks' RINGCHECK_ONESIGNAL_* and RINGCHECK_CA_FILE (a backend ringcheck
        starts has them); --unconfigured-prefix /unconfigured also serves, under that prefix, a twin started
        without the app IDs and keys (a target file's unconfigured.baseURL).
        """
    package let summary = "the OneSignal kit server"
    package let serveOptions: [ProfileOptionRow] = [
        .log,
        .flag("mock-settings", help: "take unset ONESIGNAL_* from the mocks' RINGCHECK_ONESIGNAL_*"),
        .value(
            "unconfigured-prefix", "PATH", help: "also serve an unconfigured twin under PATH (e.g. /unconfigured)",
            default: "none"),
    ]
    package let serveExamples = [
        "ONESIGNAL_APP_ID=… ONESIGNAL_API_KEY=… ringcheck serve-reference --profile onesignal --port 0"
    ]
    /// `serve-reference onesignal` as a child process, sending to the mock OneSignal (`--mock-settings`), with its
    /// unconfigured twin under `/unconfigured`.
    package let processTargetFile: String? = """
        profile: onesignal
        name: OneSignal kit server (child process)
        baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
        capabilities: [faults]
        profileOperations: {pushToUser: /push/user, pushBroadcast: /push/broadcast, voipPush: /push/voip}
        unconfigured: {baseURL: "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/unconfigured"}
        lifecycle:
          start: ["${RINGCHECK_EXECUTABLE}", serve-reference, --profile, onesignal, --mock-settings, --unconfigured-prefix, /unconfigured, --port, "${RINGCHECK_BACKEND_PORT}", --quiet{DEFECTS}]
          ready: {url: "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/push/user"}
        """

    package func serving(_ arguments: any ReferenceArguments, defects: Set<OneSignalDefect>) throws
        -> any ServedReference
    {
        var environment = ProcessInfo.processInfo.environment
        if arguments.flag("mock-settings") {
            let fromMocks = [
                V.appId: "RINGCHECK_ONESIGNAL_APP_ID", V.apiKey: "RINGCHECK_ONESIGNAL_API_KEY",
                V.voipAppId: "RINGCHECK_ONESIGNAL_VOIP_APP_ID", V.voipApiKey: "RINGCHECK_ONESIGNAL_VOIP_API_KEY",
                V.apiURL: "RINGCHECK_ONESIGNAL_URL", V.caFile: "RINGCHECK_CA_FILE",
            ]
            for (name, mockName) in fromMocks where (environment[name] ?? "").isEmpty {
                environment[name] = environment[mockName]
            }
        }
        var options = OneSignalServer.Options(
            configuration: OneSignalConfiguration(environment: environment, defects: defects))
        if let prefix = arguments.value("unconfigured-prefix") {
            guard prefix.hasPrefix("/"), prefix.count > 1, !prefix.hasSuffix("/") else {
                throw UsageError(
                    message: "--unconfigured-prefix takes a path such as /unconfigured",
                    command: arguments.command)
            }
            options.unconfiguredPrefix = prefix
        }
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        options.logFile = arguments.value("log")
        return ServedOneSignal(options: options)
    }

    /// Mocks and both kit instances; the kit takes any user ID, so it needs no accounts.
    package func startEmbedded(_ start: EmbeddedStart, defects: Set<OneSignalDefect>, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        let mocks = try await MockStack.start()
        await cleanup.add { await mocks.stop() }
        guard let mock = mocks.providers.oneSignal,
            let url = mocks.settings.extra.first(where: { $0.name == "RINGCHECK_ONESIGNAL_URL" })?.value
        else {
            throw ConfigurationError(message: "the OneSignal mock is not running")
        }
        let configured = OneSignalConfiguration(
            standardApp: OneSignalAppCredentials(id: mock.standardApp.appID, key: mock.standardApp.apiKey),
            voipApp: OneSignalAppCredentials(id: mock.voipApp.appID, key: mock.voipApp.apiKey), apiURL: url,
            caFile: mocks.settings.caFile, defects: defects)
        var unconfigured = configured
        unconfigured.standardApp = nil
        unconfigured.voipApp = nil
        let kit = try OneSignalServer(options: .init(configuration: configured))
        await cleanup.add { await kit.stop() }
        try kit.start()
        let off = try OneSignalServer(options: .init(configuration: unconfigured))
        await cleanup.add { await off.stop() }
        try off.start()
        var target = Target(
            name: EmbeddedReference.name("embedded OneSignal kit server", defects: defects), baseURL: kit.baseURL,
            accounts: { EmbeddedReference.account($0, run: $1) }, capabilities: [.faults, .unconfigured],
            appId: mocks.providers.credentials.bundleID)
        target.unconfiguredBaseURL = off.baseURL
        return EmbeddedReference(mocks: mocks, target: target)
    }
}

/// `serve-reference onesignal`: the kit server (and its unconfigured twin under `--unconfigured-prefix`).
package struct ServedOneSignal: ServedReference {
    typealias V = OneSignalConfiguration.Variable
    package var options: OneSignalServer.Options

    package var host: String { options.host }
    package var port: Int { options.port }

    package func start() async throws -> RunningReference {
        let server = try OneSignalServer(options: options)
        try server.start()
        return RunningReference(banner: summary(server), stop: { await server.stop() })
    }

    /// What the server runs with; app IDs are shown, keys never.
    package func summary(_ server: OneSignalServer) -> String {
        let c = options.configuration
        func app(_ a: OneSignalAppCredentials?, _ id: String, _ key: String) -> String {
            a.map { "\($0.id) (key from \(key), redacted)" } ?? "not configured (\(id)/\(key) unset)"
        }
        return """
            ringcheck serve-reference: listening on \(server.baseURL)
              profile      onesignal (OneSignal kit server)
              routes       POST /push/user, POST /push/broadcast, POST /push/voip
              OneSignal    \(c.notificationsURL)\(c.caFile.map { ", CA \($0)" } ?? "")
              app          \(app(c.standardApp, V.appId, V.apiKey))
              VoIP app     \(app(c.voipApp, V.voipAppId, V.voipApiKey))
              push         \(c.isConfigured ? "on" : "off: every send is a no-op reporting delivered false")\(options.unconfiguredPrefix.map { "\n  unconfigured \(server.baseURL)\($0)/push/… (no app IDs or keys)" } ?? "")
              defects      \(ServedReferenceText.defectsLine(c.defects))
            Press Ctrl-C to stop.
            """
    }
}

/// OneSignal brings its reference: an app server sending through OneSignal as the kit does.
extension OneSignalProfile: ReferenceKitProvider {
    package var referenceKit: any ReferenceKit { OneSignalReferenceKit() }
}

/// The engine's view of the defect switches (`ReferenceKitDefect` asks what `ReferenceDefect` has).
extension OneSignalDefect: ReferenceKitDefect {}
