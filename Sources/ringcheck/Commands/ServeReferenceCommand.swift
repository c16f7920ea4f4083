import Foundation
import HTTP
import InputLimits
import ReferenceBackend

/// `ringcheck serve-reference`: run the reference backend (a conforming Callx backend) until interrupted.
struct ServeReferenceCommand: RingcheckCommand {
    static let configuration = CommandConfiguration(
        name: "serve-reference",
        abstract:
            "Run the reference Callx backend (--profile dialstack: the wake-up webhook backend), sending real pushes to the providers in RINGCHECK_*, until interrupted.",
        discussion: """
            A conforming implementation of the Callx backend reference design: push-token registration, calls
            with idempotent create/answer/end, atomic answer arbitration, the per-installation event feed,
            media sessions, and pushes through a transactional outbox (APNs VoIP over HTTP/2 with a cached
            provider token, FCM v1 with a cached OAuth token). Push settings come from the RINGCHECK_*
            variables that 'ringcheck mocks --env-file F' writes ('source F' first). Test users user-a,
            user-b and user-c authenticate with 'Authorization: Bearer token-user-a' (and so on).
            Events: GET /v1/call-events?installationId=ID&cursor=N (or an x-installation-id header).

            API SHAPES (--api-shape; the same service, rules, defects and pushes behind other routes):
              reference   the reference design's routes under /v1 (above).
              alternate   routes under /api, the installation only in an X-Device-Id header:
                          PUT /api/push-registrations {platform, token, appId, apnsEnvironment?},
                          DELETE /api/push-registrations/{platform}, POST /api/v2/calls {id, to,
                          requestId, video?} (201), GET /api/v2/calls/{id}, POST /api/v2/calls/{id}/hangup
                          {requestId, reason}, POST /api/v2/calls/{id}/media-token {requestId} (from the
                          callee's device while it rings: the answer; 200 {call, media}), and
                          GET /api/events?after=CURSOR&max=N ({events, cursor, gap}). /v1 routes are 404.

            EXIT CODES: 0 after a stop by signal, 13 when another process listens on --port (the line
            'ringcheck serve-reference: HOST:PORT is in use' says which; a supervisor can pick another port),
            2 for any other start failure (settings, database, users file).

            DEFECTS (each breaks exactly one rule; off unless named with --defect):

            """ + String(Defect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast()) + "\n\n"
                + ServeWakeUpReference.helpSection + "\n\n" + ServePushServiceReference.helpSection + "\n\n"
                + ServeOneSignalKitReference.helpSection,
        options: [
            .value("host", "ADDRESS", help: "Address to listen on.", default: "127.0.0.1"),
            .value("port", "PORT", help: "Port to listen on; 0 picks a free one.", default: "8080", number: .port),
            .value(
                "db", "PATH", help: "SQLite file that keeps calls, events and pending pushes across restarts.",
                default: "in memory"),
            .value(
                "ring-seconds", "N", help: "How long a call rings before it ends as unanswered.", default: "30",
                number: .whole(1...86_400)),
            .value(
                "event-retention", "N", help: "Events each user's feed keeps; older cursors get a gap.",
                default: "1000", number: .whole(1...10_000_000)),
            .value(
                "users", "FILE", help: "JSON users file ({\"users\": [{userId, displayName, handle, token}]}).",
                default: "user-a, user-b, user-c"),
            .value("defect", "NAME", help: "Switch on a defect (see DEFECTS above).", repeatable: true),
            .value(
                "api-shape", "SHAPE", help: "Which HTTP API to serve: reference or alternate (see API SHAPES above).",
                default: "reference"),
            .value(
                "log", "FILE",
                help: "Log each request and push attempt to FILE (- for standard output); no tokens or payloads.",
                default: "no log"),
            .flag("quiet", short: "q", help: "Print nothing but errors."),
            .value(
                "profile", "NAME", help: "Which reference backend: callx, dialstack, push-service or onesignal.",
                default: "callx"),
            .flag("mock-settings", help: "onesignal: take unset ONESIGNAL_* from the mocks' RINGCHECK_ONESIGNAL_*."),
            .value(
                "unconfigured-prefix", "PATH",
                help: "onesignal: also serve an unconfigured twin under PATH (e.g. /unconfigured).", default: "none"),
            .value(
                "webhook-secret", "SECRET",
                help: "dialstack: the webhook signing secret (prefer DIALSTACK_WEBHOOK_SECRET: argv is visible).",
                default: "$DIALSTACK_WEBHOOK_SECRET"),
        ],
        examples: [
            "ringcheck mocks --env-file mocks.env &      # mock APNs/FCM, settings in mocks.env",
            "source mocks.env && ringcheck serve-reference --db /tmp/ref.db",
            "ringcheck serve-reference --port 0 --ring-seconds 5 --defect zero-ttl --defect racy-answer",
            "ringcheck serve-reference --port 0 --api-shape alternate   # the same backend, other routes",
            "ringcheck serve-reference --log - --quiet                 # one line per request and push on stdout",
            "DIALSTACK_WEBHOOK_SECRET=whsec_… ringcheck serve-reference --profile dialstack --port 0",
            "source mocks.env && ringcheck serve-reference --profile push-service --port 0 --db /tmp/push.db",
            "ONESIGNAL_APP_ID=… ONESIGNAL_API_KEY=… ringcheck serve-reference --profile onesignal --port 0",
        ])

    var options = ReferenceBackendServer.Options()
    var quiet: Bool
    /// The `--users` file the users came from; its bearer tokens are the user's secrets and never printed.
    var usersFile: String?
    /// Set for `--profile dialstack`, which serves the wake-up reference backend instead.
    var wakeUp: ServeWakeUpReference?
    /// Set for `--profile push-service`, which serves the reference push service instead.
    var pushService: ServePushServiceReference?
    /// Set for `--profile onesignal`, which serves the OneSignal kit server instead.
    var oneSignalKit: ServeOneSignalKitReference?

    init(arguments: ParsedArguments) throws {
        let name = Self.configuration.name
        switch arguments.value("profile") ?? "callx" {
        case "callx":
            if arguments.value("webhook-secret") != nil {
                throw UsageError(message: "--webhook-secret is for --profile dialstack", command: name)
            }
        case "dialstack":
            wakeUp = try ServeWakeUpReference(arguments: arguments)
            quiet = arguments.flag("quiet")
            return
        case "push-service":
            pushService = try ServePushServiceReference(arguments: arguments)
            quiet = arguments.flag("quiet")
            return
        case "onesignal":
            oneSignalKit = try ServeOneSignalKitReference(arguments: arguments)
            quiet = arguments.flag("quiet")
            return
        case let other:
            throw UsageError(
                message: "unknown --profile '\(other)'; use callx, dialstack, push-service or onesignal", command: name)
        }
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        if let db = arguments.value("db") { options.database = .file(db) }
        let ringSeconds = try arguments.int("ring-seconds") ?? 30
        let retention = try arguments.int("event-retention") ?? 1_000
        let (defects, unknown) = Defect.parse(arguments.all("defect"))
        if !unknown.isEmpty {
            let list = Defect.allCases.map { HelpFormatter.row($0.name, $0.summary) }.joined().dropLast()
            throw UsageError(
                message: "unknown defect '\(unknown.joined(separator: "', '"))'; the defects are:\n\(list)",
                command: name)
        }
        let shapeName = arguments.value("api-shape") ?? APIShape.reference.rawValue
        guard let apiShape = APIShape(rawValue: shapeName) else {
            let shapes = APIShape.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError(message: "unknown --api-shape '\(shapeName)'; use \(shapes)", command: name)
        }
        options.configuration = ReferenceBackendConfiguration(
            ringSeconds: ringSeconds, eventRetention: retention, defects: defects, apiShape: apiShape)
        if let path = arguments.value("users") {
            usersFile = path
            do { options.users = try UserDirectory.load(path: path) } catch {
                throw ConfigurationError(message: "--users: \(error)")
            }
        }
        quiet = arguments.flag("quiet")
        options.logFile = arguments.value("log")
    }

    func run() async throws -> ExitCode {
        if let wakeUp { return try await wakeUp.run() }
        if let pushService { return try await pushService.run() }
        if let oneSignalKit { return try await oneSignalKit.run() }
        let providers = try Self.providerSettings()
        // Caught from before the server announces itself, so a supervisor's early stop is never lost.
        try TerminationSignals.install()
        let server: ReferenceBackendServer
        do {
            server = try ReferenceBackendServer(options: options, providers: providers)
            try server.start()
        } catch let error as HTTPServerError where error.code == Int(EADDRINUSE) && error.operation.hasPrefix("listen")
        {
            Console.error("\(Self.portInUse(host: options.host, port: options.port)) (\(error))")
            return .portInUse
        } catch {
            throw ConfigurationError(message: "cannot start the reference backend: \(error)")
        }
        if !quiet { Console.out(summary(server, providers)) }
        let signal = await TerminationSignals.wait()
        await server.stop()
        if !quiet { Console.out("ringcheck serve-reference: stopped (signal \(signal)).") }
        return .success
    }

    /// The push settings from the `RINGCHECK_*` variables; a configuration error naming each one missing
    /// or unusable.
    static func providerSettings() throws -> PushProviderSettings {
        let providers: PushProviderSettings
        do { providers = try PushProviderSettings(environment: ProcessInfo.processInfo.environment) } catch {
            throw ConfigurationError(message: "\(error)")
        }
        let problems = providers.problems()
        if !problems.isEmpty {
            throw ConfigurationError(message: "\(PushProviderSettingsProblems(problems: problems))")
        }
        return providers
    }

    /// The line a start on a taken port prints (exit status 13); `run --reference-process` looks for it
    /// to choose another port.
    static func portInUse(host: String, port: Int) -> String {
        "ringcheck serve-reference: \(host):\(port) is in use"
    }

    /// The users and how they sign in: the built-in test users' documented tokens, but for a `--users`
    /// file only where the tokens are (they are the user's secrets, and the banner reaches CI logs).
    var usersLine: String {
        let ids = options.users.users.map(\.userId)
        guard let usersFile else {
            return options.users.users.map { "\($0.userId) (Bearer \($0.bearerToken))" }.joined(separator: ", ")
        }
        return ids.prefix(10).joined(separator: ", ") + (ids.count > 10 ? " and \(ids.count - 10) more" : "")
            + " (Bearer tokens from \(usersFile))"
    }

    func summary(_ server: ReferenceBackendServer, _ providers: PushProviderSettings) -> String {
        let database: String
        switch options.database {
        case .inMemory: database = "in memory (lost on exit; use --db PATH to keep it)"
        case .file(let path): database = path
        }
        let defects = options.configuration.defects.map(\.name).sorted()
        let out = """
            ringcheck serve-reference: listening on \(server.baseURL)
              users        \(usersLine)
              api shape    \(options.configuration.apiShape.rawValue)\(options.configuration.apiShape == .alternate ? " (routes under /api, installation in X-Device-Id)" : " (routes under /v1)")
              database     \(database)
              ring time    \(options.configuration.ringSeconds) s, event retention \(options.configuration.eventRetention)
              APNs         \(providers.apnsURL) (production), \(providers.apnsSandboxURL) (sandbox), topic \(providers.apnsBundleID).voip
              FCM          \(providers.fcmURL)
              defects      \(defects.isEmpty ? "none (conforming)" : defects.joined(separator: ", "))
            Press Ctrl-C to stop.
            """
        return out
    }
}
