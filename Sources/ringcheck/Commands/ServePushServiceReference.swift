import Foundation
import HTTP
import ReferenceBackend

/// `ringcheck serve-reference --profile push-service`: the reference push service (the seed's REST
/// API, a durable SQLite queue, pushes through APNs and FCM) until interrupted.
struct ServePushServiceReference {
    /// Where the App ID and REST key come from when set; otherwise both are generated.
    static let appIdVariable = "RINGCHECK_PUSH_SERVICE_APP_ID"
    static let apiKeyVariable = "RINGCHECK_PUSH_SERVICE_API_KEY"

    /// The `serve-reference --help` section about this profile.
    static let helpSection =
        """
        PROFILE push-service (--profile push-service): a OneSignal-style push service with one app.
        POST /api/v1/apps/{appId}/devices {external_id, platform, token, voipToken?, sandbox?} (no key),
        DELETE /api/v1/apps/{appId}/devices/{id}, POST /notifications (Authorization: Key|Basic|Bearer
        <REST key>; normal notifications and calls) and GET /notifications/{id}?app_id= (delivery counts).
        The App ID and key come from \(appIdVariable) and \(apiKeyVariable), or are generated (the
        key into a mode-0600 file whose path is printed, removed on exit; never the key). --db keeps devices and the delivery queue across restarts. --api-shape alternate
        serves the same service under /v2 (installations, messages) with other member names (appId,
        audience, externalId, os, pushToken, pushKitToken, heading, message, …; the seed's routes 404).
        --ring-seconds, --event-retention, --users and --webhook-secret do not apply.

        PUSH-SERVICE DEFECTS (--profile push-service --defect NAME):

        """ + String(PushServiceDefect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast())

    var options: PushServiceServer.Options
    var quiet: Bool
    /// The variable the REST key came from, or nil when it was generated.
    var keyVariable: String?

    init(arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let command = ServeReferenceCommand.configuration.name
        for name in ["ring-seconds", "event-retention", "users", "webhook-secret"]
        where arguments.value(name) != nil {
            throw UsageError(message: "--\(name) does not apply to --profile push-service", command: command)
        }
        let (defects, unknown) = PushServiceDefect.parse(arguments.all("defect"))
        if !unknown.isEmpty {
            let list = PushServiceDefect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast()
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))' for --profile push-service; the defects are:\n\(list)",
                command: command)
        }
        let shapeName = arguments.value("api-shape") ?? PushServiceAPIShape.reference.rawValue
        guard let shape = PushServiceAPIShape(rawValue: shapeName) else {
            let shapes = PushServiceAPIShape.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError(
                message: "unknown --api-shape '\(shapeName)' for --profile push-service; use \(shapes)",
                command: command)
        }
        let providers = try ServeReferenceCommand.providerSettings()
        var configuration = PushServiceConfiguration.generated(bundleID: providers.apnsBundleID, defects: defects)
        if let appId = environment[Self.appIdVariable], !appId.isEmpty { configuration.appId = appId }
        if let key = environment[Self.apiKeyVariable], !key.isEmpty {
            configuration.apiKey = key
            keyVariable = Self.apiKeyVariable
        }
        configuration.apiShape = shape
        options = PushServiceServer.Options(configuration: configuration)
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        if let db = arguments.value("db") { options.database = .file(db) }
        options.logFile = arguments.value("log")
        quiet = arguments.flag("quiet")
    }

    func run() async throws -> ExitCode {
        let providers = try ServeReferenceCommand.providerSettings()
        try TerminationSignals.install()
        let server: PushServiceServer
        do {
            server = try PushServiceServer(options: options, providers: providers)
            try server.start()
        } catch let error as HTTPServerError where error.code == Int(EADDRINUSE) && error.operation.hasPrefix("listen")
        {
            Console.error("\(ServeReferenceCommand.portInUse(host: options.host, port: options.port)) (\(error))")
            return .portInUse
        } catch {
            throw ConfigurationError(message: "cannot start the reference push service: \(error)")
        }
        // A generated key is handed over in a private file, not printed: the banner reaches CI logs.
        var keyFile: GeneratedKeyFile?
        if keyVariable == nil {
            do { keyFile = try GeneratedKeyFile(key: options.configuration.apiKey) } catch {
                await server.stop()
                throw ConfigurationError(message: "cannot write the generated REST key: \(error)")
            }
        }
        if !quiet { Console.out(summary(server, providers, keyFile: keyFile?.path)) }
        let signal = await TerminationSignals.wait()
        await server.stop()
        keyFile?.remove()
        if !quiet { Console.out("ringcheck serve-reference: stopped (signal \(signal)).") }
        return .success
    }

    /// What the operator needs to use the service: the URL, the App ID and where the key is (the
    /// variable it came from, or the private file a generated one was written to), never the key.
    func summary(_ server: PushServiceServer, _ providers: PushProviderSettings, keyFile: String?) -> String {
        let key =
            keyVariable.map { "from \($0)" } ?? keyFile.map { "generated, in \($0) (mode 0600, removed on exit)" }
            ?? "generated"
        let defects = options.configuration.defects.map(\.name).sorted()
        let database: String
        switch options.database {
        case .inMemory: database = "in memory (lost on exit; use --db PATH to keep it)"
        case .file(let path): database = path
        }
        return """
            ringcheck serve-reference: listening on \(server.baseURL)
              profile      push-service (OneSignal-style push service)
              app id       \(options.configuration.appId)
              rest key     \(key) (Authorization: Key …)
              api shape    \(options.configuration.apiShape == .alternate ? "alternate (routes under /v2, other member names)" : "reference (the seed's routes)")
              database     \(database)
              APNs         \(providers.apnsURL) (production), \(providers.apnsSandboxURL) (sandbox), bundle \(providers.apnsBundleID)
              FCM          \(providers.fcmURL)
              defects      \(defects.isEmpty ? "none (conforming)" : defects.joined(separator: ", "))
            Press Ctrl-C to stop.
            """
    }
}
