import Conformance
import Foundation
import PushMocks
import ReferenceBackend

/// The push-service reference: the seed's REST API, a durable SQLite queue, pushes through APNs and FCM.
/// `serve-reference push-service` takes its App ID and REST key from the environment or generates them;
/// the embedded one has one app with a random App ID and `psk_` key, given to both it and `Target.serviceApp`.
package struct PushServiceReferenceKit: ReferenceKit {
    package typealias Defect = PushServiceDefect

    package init() {}

    /// Where the App ID and REST key come from when set; otherwise both are generated.
    package static let appIdVariable = PushServiceTriggerOptions.appIdVariable
    package static let apiKeyVariable = PushServiceTriggerOptions.apiKeyVariable

    package var profile: any Profile { PushServiceProfile() }
    package let title = "the reference push service"
    package let helpIntro = """
        PROFILE push-service (--profile push-service): a OneSignal-style push service with one app.
        POST /api/v1/apps/{appId}/devices {external_id, platform, token, voipToken?, sandbox?} (no key),
        DELETE /api/v1/apps/{appId}/devices/{id}, POST /notifications (Authorization: Key|Basic|Bearer
        <REST key>; normal notifications and calls) and GET /notifications/{id}?app_id= (delivery counts).
        The App ID and key come from \(appIdVariable) and \(apiKeyVariable), or are generated (the
        key into a mode-0600 file whose path is printed, removed on exit; never the key). --db keeps devices and the delivery queue across restarts. --api-shape alternate
        serves the same service under /v2 (installations, messages) with other member names (appId,
        audience, externalId, os, pushToken, pushKitToken, heading, message, …; the seed's routes 404);
        alternate-keyed also wants the REST key on the installation routes and answers a registration
        {installationId}.
        """
    package let summary = "the reference push service"
    package let serveOptions: [ProfileOptionRow] = [
        .value(
            "db", "PATH", help: "SQLite file that keeps devices and the delivery queue across restarts",
            default: "in memory"),
        .value(
            "api-shape", "SHAPE",
            help: "Which HTTP API to serve: reference, alternate or alternate-keyed (see PROFILE push-service above)",
            default: "reference"),
        .log,
    ]
    package let serveExamples = [
        "source mocks.env && ringcheck serve-reference --profile push-service --port 0 --db /tmp/push.db"
    ]
    /// `serve-reference push-service` as a child process: ringcheck generates the App ID and REST key into its
    /// environment; load makes fresh users of its own, so the one user here is never used.
    package let processTargetFile: String? = """
        profile: push-service
        name: reference push service (child process)
        baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}
        capabilities: [faults, sandbox]
        serviceApp: {appIdEnv: RINGCHECK_PUSH_SERVICE_APP_ID, apiKeyEnv: RINGCHECK_PUSH_SERVICE_API_KEY}
        users:
          a: {userId: a, auth: {bearer: unused}}
        lifecycle:
          start: ["${RINGCHECK_EXECUTABLE}", serve-reference, --profile, push-service, --port, "${RINGCHECK_BACKEND_PORT}", --quiet{DEFECTS}]
          ready: {url: "http://127.0.0.1:${RINGCHECK_BACKEND_PORT}/notifications/none?app_id=none"}
        """

    package func serving(_ arguments: any ReferenceArguments, defects: Set<PushServiceDefect>) throws
        -> any ServedReference
    {
        let command = arguments.command
        let environment = ProcessInfo.processInfo.environment
        let shapeName = arguments.value("api-shape") ?? PushServiceAPIShape.reference.rawValue
        guard let shape = PushServiceAPIShape(rawValue: shapeName) else {
            let shapes = PushServiceAPIShape.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError(
                message: "unknown --api-shape '\(shapeName)' for --profile push-service; use \(shapes)",
                command: command)
        }
        let providers = try ConfigurationError.reporting { try PushProviderSettings.fromEnvironment() }
        var configuration = PushServiceConfiguration.generated(bundleID: providers.apnsBundleID, defects: defects)
        var keyVariable: String?
        if let appId = environment[Self.appIdVariable], !appId.isEmpty { configuration.appId = appId }
        if let key = environment[Self.apiKeyVariable], !key.isEmpty {
            configuration.apiKey = key
            keyVariable = Self.apiKeyVariable
        }
        configuration.apiShape = shape
        var options = PushServiceServer.Options(configuration: configuration)
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        if let db = arguments.value("db") { options.database = .file(db) }
        options.logFile = arguments.value("log")
        return ServedPushService(options: options, providers: providers, keyVariable: keyVariable)
    }

    /// Mocks and service; scenario user `name` of run `run` is the external ID `u<run>-<name>` (devices
    /// register for it, notifications target it); the queue lives in the service's in-memory SQLite.
    package func startEmbedded(
        _ start: EmbeddedStart, defects: Set<PushServiceDefect>, cleanup: any CleanupRegistry
    ) async throws -> EmbeddedReference {
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
        var target = Target(
            name: EmbeddedReference.name("embedded reference push service", defects: defects),
            baseURL: service.baseURL,
            accounts: { name, run in TargetUser(userId: "u\(run)-\(name)", authHeaders: [:]) },
            capabilities: [.faults, .sandbox], appId: bundleID)
        target.serviceApp = ServiceApp(appId: configuration.appId, apiKey: configuration.apiKey)
        return EmbeddedReference(mocks: mocks, target: target)
    }
}

/// `serve-reference push-service`: the service, and a generated REST key handed over in a private file.
package struct ServedPushService: ServedReference {
    package var options: PushServiceServer.Options
    package var providers: PushProviderSettings
    /// The variable the REST key came from, or nil when it was generated.
    package var keyVariable: String?

    package var host: String { options.host }
    package var port: Int { options.port }

    package func start() async throws -> RunningReference {
        let server = try PushServiceServer(options: options, providers: providers)
        try server.start()
        // A generated key is handed over in a private file, not printed: the banner reaches CI logs.
        var keyFile: GeneratedKeyFile?
        if keyVariable == nil {
            do { keyFile = try GeneratedKeyFile(key: options.configuration.apiKey) } catch {
                await server.stop()
                throw ConfigurationError(message: "cannot write the generated REST key: \(error)")
            }
        }
        let written = keyFile
        return RunningReference(
            banner: summary(server, keyFile: keyFile?.path),
            stop: {
                await server.stop()
                written?.remove()
            })
    }

    /// What the operator needs to use the service: the URL, the App ID and where the key is (the
    /// variable it came from, or the private file a generated one was written to), never the key.
    package func summary(_ server: PushServiceServer, keyFile: String?) -> String {
        let key =
            keyVariable.map { "from \($0)" } ?? keyFile.map { "generated, in \($0) (mode 0600, removed on exit)" }
            ?? "generated"
        return """
            ringcheck serve-reference: listening on \(server.baseURL)
              profile      push-service (OneSignal-style push service)
              app id       \(options.configuration.appId)
              rest key     \(key) (Authorization: Key …)
              api shape    \(Self.shapeLine(options.configuration.apiShape))
              database     \(ServedReferenceText.databaseLine(file: options.database.path))
              APNs         \(providers.apnsURL) (production), \(providers.apnsSandboxURL) (sandbox), bundle \(providers.apnsBundleID)
              FCM          \(providers.fcmURL)
              defects      \(ServedReferenceText.defectsLine(options.configuration.defects))
            Press Ctrl-C to stop.
            """
    }

    /// The banner's `api shape` line.
    package static func shapeLine(_ shape: PushServiceAPIShape) -> String {
        switch shape {
        case .reference: return "reference (the seed's routes)"
        case .alternate: return "alternate (routes under /v2, other member names)"
        case .alternateKeyed: return "alternate-keyed (routes under /v2, other member names, keyed installations)"
        }
    }
}

/// The push service brings its reference: the seed's REST API over a durable queue.
extension PushServiceProfile: ReferenceKitProvider {
    package var referenceKit: any ReferenceKit { PushServiceReferenceKit() }
}

/// The engine's view of the defect switches (`ReferenceKitDefect` asks what `ReferenceDefect` has).
extension PushServiceDefect: ReferenceKitDefect {}
