import Conformance
import Foundation
import ReferenceBackend

/// The Callx reference backend: `serve-reference` (the default profile) and `run`'s embedded reference,
/// which can log, run as a child process and start a second instance (`EmbeddedReference.start`).
package struct CallxReferenceKit: ReferenceKit {
    package typealias Defect = CallxDefect

    package init() {}

    package var profile: any Profile { CallxProfile() }
    package let title = "the reference backend"
    package let summary = "the reference Callx backend"
    /// The reference design it implements and its API shapes; its defect list follows.
    package let helpIntro = """
        PROFILE callx (the default, --profile callx): a conforming implementation of the Callx backend reference
        design: push-token registration, calls with idempotent create/answer/end, atomic answer arbitration, the
        per-installation event feed, media sessions, and pushes through a transactional outbox (APNs VoIP over
        HTTP/2 with a cached provider token, FCM v1 with a cached OAuth token). Push settings come from the
        RINGCHECK_* variables that 'ringcheck mocks --env-file F' writes ('source F' first). Test users user-a,
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
          node        the alternate routes with a real public backend's other differences: token kind
                      voip, no idempotency keys, numeric revisions and cursors, its own names for
                      states and end reasons, a media token that is a JWT and answers without a
                      snapshot (examples/targets/reference-node.yaml judges it).
        """
    package let defectHeading = "DEFECTS (each breaks exactly one rule; off unless named with --defect):"
    /// The options only it takes (`--db`, `--users` and `--log` it shares with others).
    package let serveOptions: [ProfileOptionRow] = [
        .value(
            "db", "PATH", help: "SQLite file that keeps calls, events and pending pushes across restarts",
            default: "in memory"),
        .value(
            "ring-seconds", "N", help: "How long a call rings before it ends as unanswered", default: "30",
            number: .whole(1...86_400)),
        .value(
            "event-retention", "N", help: "Events each user's feed keeps; older cursors get a gap", default: "1000",
            number: .whole(1...10_000_000)),
        .users,
        .value(
            "api-shape", "SHAPE", help: "Which HTTP API to serve: reference, alternate or node (see API SHAPES above)",
            default: "reference"),
        .log,
    ]
    package let serveExamples = [
        "ringcheck mocks --env-file mocks.env &      # mock APNs/FCM, settings in mocks.env",
        "source mocks.env && ringcheck serve-reference --db /tmp/ref.db",
        "ringcheck serve-reference --port 0 --ring-seconds 5 --defect zero-ttl --defect racy-answer",
        "ringcheck serve-reference --port 0 --api-shape alternate   # the same backend, other routes",
        "ringcheck serve-reference --log - --quiet                 # one line per request and push on stdout",
    ]
    package let startsLogged = true
    package let storageNote: String? = "SQLite file"
    /// Calls of a load run that are not about expiry ring this long.
    package static let loadRingSeconds = 30
    /// Events kept per feed under load: far more than a feed holds between two reads, so a gap there would
    /// be a finding about the driver, not the backend.
    package static let loadEventRetention = 100_000

    package func serving(_ arguments: any ReferenceArguments, defects: Set<CallxDefect>) throws
        -> any ServedReference
    {
        let command = arguments.command
        var options = ReferenceBackendServer.Options()
        options.host = arguments.value("host") ?? "127.0.0.1"
        options.port = try arguments.int("port") ?? 8080
        if let db = arguments.value("db") { options.database = .file(db) }
        let ringSeconds = try arguments.int("ring-seconds") ?? 30
        let retention = try arguments.int("event-retention") ?? 1_000
        let shapeName = arguments.value("api-shape") ?? APIShape.reference.rawValue
        guard let apiShape = APIShape(rawValue: shapeName) else {
            let shapes = APIShape.allCases.map(\.rawValue).joined(separator: " or ")
            throw UsageError(message: "unknown --api-shape '\(shapeName)'; use \(shapes)", command: command)
        }
        options.configuration = ReferenceBackendConfiguration(
            ringSeconds: ringSeconds, eventRetention: retention, defects: defects, apiShape: apiShape)
        if let path = arguments.value("users") {
            options.users = try ConfigurationError.reporting("--users: ") { try UserDirectory.load(path: path) }
        }
        options.logFile = arguments.value("log")
        return ServedCallx(options: options, usersFile: arguments.value("users"))
    }

    package func startEmbedded(_ start: EmbeddedStart, defects: Set<CallxDefect>, cleanup: any CleanupRegistry)
        async throws -> EmbeddedReference
    {
        try await EmbeddedReference.start(
            defects: defects, runs: start.runs, userNames: start.userNames, log: start.log,
            asChildProcess: start.asChildProcess, restartInstance: start.restartInstance, cleanup: cleanup)
    }

    /// The load users sign in as themselves: user `load-a0`, bearer `token-load-a0`.
    package func startForLoad(
        _ start: LoadEmbeddedStart, defects: Set<CallxDefect>, cleanup: any CleanupRegistry
    ) async throws -> EmbeddedReference {
        let names = start.callers + start.callees
        let users = names.map {
            BackendUser(userId: $0, displayName: $0, handle: "callx:\($0)", bearerToken: "token-\($0)")
        }
        let accounts: @Sendable (String, Int) -> TargetUser? = { name, _ in
            names.contains(name) ? TargetUser(userId: name, bearerToken: "token-\(name)") : nil
        }
        return try await EmbeddedReference.start(
            defects: defects, users: users, ringSeconds: Self.loadRingSeconds, accounts: accounts, log: start.log,
            asChildProcess: start.asChildProcess, eventRetention: Self.loadEventRetention, cleanup: cleanup)
    }
}

/// `serve-reference` (callx): the reference backend with the push settings from `RINGCHECK_*`.
package struct ServedCallx: ServedReference {
    package var options: ReferenceBackendServer.Options
    /// The `--users` file the users came from; its bearer tokens are the user's secrets and never printed.
    package var usersFile: String?

    package var host: String { options.host }
    package var port: Int { options.port }

    package func start() async throws -> RunningReference {
        let providers = try ConfigurationError.reporting { try PushProviderSettings.fromEnvironment() }
        let server = try ReferenceBackendServer(options: options, providers: providers)
        try server.start()
        return RunningReference(banner: summary(server, providers), stop: { await server.stop() })
    }

    /// The users and how they sign in: the built-in test users' documented tokens, but for a `--users`
    /// file only where the tokens are (they are the user's secrets, and the banner reaches CI logs).
    package var usersLine: String {
        let ids = options.users.users.map(\.userId)
        guard let usersFile else {
            return options.users.users.map { "\($0.userId) (Bearer \($0.bearerToken))" }.joined(separator: ", ")
        }
        return ids.prefix(10).joined(separator: ", ") + (ids.count > 10 ? " and \(ids.count - 10) more" : "")
            + " (Bearer tokens from \(usersFile))"
    }

    package func summary(_ server: ReferenceBackendServer, _ providers: PushProviderSettings) -> String {
        let out = """
            ringcheck serve-reference: listening on \(server.baseURL)
              users        \(usersLine)
              api shape    \(options.configuration.apiShape.rawValue)\(options.configuration.apiShape == .alternate ? " (routes under /api, installation in X-Device-Id)" : " (routes under /v1)")
              database     \(ServedReferenceText.databaseLine(file: options.database.path))
              ring time    \(options.configuration.ringSeconds) s, event retention \(options.configuration.eventRetention)
              APNs         \(providers.apnsURL) (production), \(providers.apnsSandboxURL) (sandbox), topic \(providers.apnsBundleID).voip
              FCM          \(providers.fcmURL)
              defects      \(ServedReferenceText.defectsLine(options.configuration.defects))
            Press Ctrl-C to stop.
            """
        return out
    }
}

/// Callx brings its reference: `serve-reference` (the default profile) and `run`'s embedded reference.
extension CallxProfile: ReferenceKitProvider {
    package var referenceKit: any ReferenceKit { CallxReferenceKit() }
}

/// The engine's view of the defect switches (`ReferenceKitDefect` asks what `ReferenceDefect` has).
extension CallxDefect: ReferenceKitDefect {}
