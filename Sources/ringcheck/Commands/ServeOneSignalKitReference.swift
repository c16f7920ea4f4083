import Foundation
import HTTP
import ReferenceBackend

/// `ringcheck serve-reference --profile onesignal`: the OneSignal kit server (the seed's `sendPushToUser`,
/// `sendPushBroadcast`, `sendVoipPushToUser` behind `POST /push/{user,broadcast,voip}`) until interrupted, configured
/// by the seed's `ONESIGNAL_*` variables.
struct ServeOneSignalKitReference {
    typealias V = OneSignalKitConfiguration.Variable

    /// The `serve-reference --help` section about this profile.
    static let helpSection =
        """
        PROFILE onesignal (--profile onesignal): an app server sending through OneSignal, as the kit does.
        POST /push/user {userId, title, body, data, options}, POST /push/broadcast {title, body, data,
        options} and POST /push/voip {userId, data, options} answer 200 {"delivered": bool} (recipients >= 1);
        options: priority, ttl, contentAvailable, apnsPushTypeOverride, collapseId. Settings: \(V.appId),
        \(V.apiKey), \(V.voipAppId), \(V.voipApiKey), \(V.apiURL) (default
        \(OneSignalKitConfiguration.defaultAPIURL)), \(V.caFile); without the app ID and key nothing is sent
        (delivered false). With `ringcheck mocks`: ONESIGNAL_API_URL=$RINGCHECK_ONESIGNAL_URL,
        ONESIGNAL_CA_FILE=$RINGCHECK_CA_FILE and the apps from RINGCHECK_ONESIGNAL_*. --db, --ring-seconds,
        --event-retention, --api-shape, --users and --webhook-secret do not apply. --mock-settings fills every
        unset ONESIGNAL_* from the mocks' RINGCHECK_ONESIGNAL_* and RINGCHECK_CA_FILE (a backend ringcheck
        starts has them); --unconfigured-prefix /unconfigured also serves, under that prefix, a twin started
        without the app IDs and keys (a target file's unconfigured.baseURL).

        ONESIGNAL DEFECTS (--profile onesignal --defect NAME):

        """ + String(OneSignalKitDefect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast())

    var options: OneSignalKitServer.Options
    var quiet: Bool

    init(arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let command = ServeReferenceCommand.configuration.name
        for name in ["db", "ring-seconds", "event-retention", "api-shape", "users", "webhook-secret"]
        where arguments.value(name) != nil {
            throw UsageError(message: "--\(name) does not apply to --profile onesignal", command: command)
        }
        let (defects, unknown) = OneSignalKitDefect.parse(arguments.all("defect"))
        if !unknown.isEmpty {
            let list = OneSignalKitDefect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast()
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))' for --profile onesignal; the defects are:\n\(list)",
                command: command)
        }
        var environment = environment
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
        options = OneSignalKitServer.Options(
            configuration: OneSignalKitConfiguration(environment: environment, defects: defects))
        if let prefix = arguments.value("unconfigured-prefix") {
            guard prefix.hasPrefix("/"), prefix.count > 1, !prefix.hasSuffix("/") else {
                throw UsageError(message: "--unconfigured-prefix takes a path such as /unconfigured", command: command)
            }
            options.unconfiguredPrefix = prefix
        }
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        options.logFile = arguments.value("log")
        quiet = arguments.flag("quiet")
    }

    func run() async throws -> ExitCode {
        try TerminationSignals.install()
        let server: OneSignalKitServer
        do {
            server = try OneSignalKitServer(options: options)
            try server.start()
        } catch let error as HTTPServerError where error.code == Int(EADDRINUSE) && error.operation.hasPrefix("listen")
        {
            Console.error("\(ServeReferenceCommand.portInUse(host: options.host, port: options.port)) (\(error))")
            return .portInUse
        } catch {
            throw ConfigurationError(message: "cannot start the OneSignal kit server: \(error)")
        }
        if !quiet { Console.out(summary(server)) }
        let signal = await TerminationSignals.wait()
        await server.stop()
        if !quiet { Console.out("ringcheck serve-reference: stopped (signal \(signal)).") }
        return .success
    }

    /// What the server runs with; app IDs are shown, keys never.
    func summary(_ server: OneSignalKitServer) -> String {
        let c = options.configuration
        let defects = c.defects.map(\.name).sorted()
        func app(_ a: OneSignalKitApp?, _ id: String, _ key: String) -> String {
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
              defects      \(defects.isEmpty ? "none (conforming)" : defects.joined(separator: ", "))
            Press Ctrl-C to stop.
            """
    }
}
