import Foundation
import HTTP
import ReferenceBackend

/// `ringcheck serve-reference --profile dialstack`: the wake-up reference backend (a conforming customer
/// backend of DialStack's `call.mobile_push_wakeup` webhook) until interrupted.
struct ServeWakeUpReference {
    /// Where the webhook signing secret comes from when `--webhook-secret` is not given.
    static let secretVariable = "DIALSTACK_WEBHOOK_SECRET"

    /// The `serve-reference --help` section about this profile.
    static let helpSection =
        """
        PROFILE dialstack (--profile dialstack): a customer backend of DialStack's wake-up webhook.
        POST /webhooks/dialstack takes signed events (x-dialstack-signature: t=…,v1=…, HMAC-SHA256 of
        "<t>.<raw body>" with the secret from \(secretVariable) or --webhook-secret); a
        call.mobile_push_wakeup wakes every device its data.user_id registered, through
        PUT|DELETE /v1/installations/{id}/push-tokens/{apnsVoip|fcm} as for callx. --db, --ring-seconds,
        --event-retention and --api-shape do not apply.

        DIALSTACK DEFECTS (--profile dialstack --defect NAME):

        """ + String(WakeUpDefect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast())

    var options: WakeUpServer.Options
    var quiet: Bool
    /// Where the secret came from, for the summary (never the secret itself).
    var secretSource: String

    init(arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let command = ServeReferenceCommand.configuration.name
        for name in ["db", "ring-seconds", "event-retention", "api-shape"] where arguments.value(name) != nil {
            throw UsageError(message: "--\(name) does not apply to --profile dialstack", command: command)
        }
        let (defects, unknown) = WakeUpDefect.parse(arguments.all("defect"))
        if !unknown.isEmpty {
            let list = WakeUpDefect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast()
            throw UsageError(
                message:
                    "unknown defect '\(unknown.joined(separator: "', '"))' for --profile dialstack; the defects are:\n\(list)",
                command: command)
        }
        let secret: String
        if let given = arguments.value("webhook-secret"), !given.isEmpty {
            secret = given
            secretSource = "--webhook-secret"
        } else if let set = environment[Self.secretVariable], !set.isEmpty {
            secret = set
            secretSource = Self.secretVariable
        } else {
            throw ConfigurationError(
                message:
                    "--profile dialstack verifies DialStack's webhook signatures and needs the signing secret (the one "
                    + "DialStack returned when the webhook endpoint was created): set \(Self.secretVariable), or pass "
                    + "--webhook-secret SECRET")
        }
        options = WakeUpServer.Options(configuration: WakeUpConfiguration(webhookSecret: secret, defects: defects))
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        if let path = arguments.value("users") {
            do { options.users = try UserDirectory.load(path: path) } catch {
                throw ConfigurationError(message: "--users: \(error)")
            }
        }
        options.logFile = arguments.value("log")
        quiet = arguments.flag("quiet")
    }

    func run() async throws -> ExitCode {
        let providers = try ServeReferenceCommand.providerSettings()
        try TerminationSignals.install()
        let server: WakeUpServer
        do {
            server = try WakeUpServer(options: options, providers: providers)
            try server.start()
        } catch let error as HTTPServerError where error.code == Int(EADDRINUSE) && error.operation.hasPrefix("listen")
        {
            Console.error("\(ServeReferenceCommand.portInUse(host: options.host, port: options.port)) (\(error))")
            return .portInUse
        } catch {
            throw ConfigurationError(message: "cannot start the wake-up reference backend: \(error)")
        }
        if !quiet { Console.out(summary(server, providers)) }
        let signal = await TerminationSignals.wait()
        await server.stop()
        if !quiet { Console.out("ringcheck serve-reference: stopped (signal \(signal)).") }
        return .success
    }

    func summary(_ server: WakeUpServer, _ providers: PushProviderSettings) -> String {
        let defects = options.configuration.defects.map(\.name).sorted()
        return """
            ringcheck serve-reference: listening on \(server.baseURL)
              profile      dialstack (wake-up webhook backend)
              webhook      POST \(server.webhookURL), secret from \(secretSource)
              users        \(options.users.users.map { "\($0.userId) (Bearer \($0.bearerToken))" }.joined(separator: ", "))
              APNs         \(providers.apnsURL) (production), \(providers.apnsSandboxURL) (sandbox), topic \(providers.apnsVoIPTopic)
              FCM          \(providers.fcmURL)
              defects      \(defects.isEmpty ? "none (conforming)" : defects.joined(separator: ", "))
            Press Ctrl-C to stop.
            """
    }
}
