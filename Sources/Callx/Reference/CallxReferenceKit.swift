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
    /// The command's own discussion is Callx's; its defect list follows it.
    package let helpIntro = ""
    package let defectHeading = "DEFECTS (each breaks exactly one rule; off unless named with --defect):"
    package let inapplicableOptions: [String] = []
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
        if arguments.value("webhook-secret") != nil {
            throw UsageError(message: "--webhook-secret is for --profile dialstack", command: command)
        }
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
