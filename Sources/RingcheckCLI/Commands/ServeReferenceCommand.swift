import AllProfiles
import Conformance
import Foundation
import HTTP
import InputLimits

/// `ringcheck serve-reference`: run the reference backend (a conforming Callx backend) until interrupted.
struct ServeReferenceCommand: RingcheckCommand {
    /// Computed, so its help and profile lists follow the registry in force (`Ringcheck.dispatch(_:profiles:)`).
    static var configuration: CommandConfiguration {
        CommandConfiguration(
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
                  node        the alternate routes with a real public backend's other differences: token kind
                              voip, no idempotency keys, numeric revisions and cursors, its own names for
                              states and end reasons, a media token that is a JWT and answers without a
                              snapshot (examples/targets/reference-node.yaml judges it).

                EXIT CODES: 0 after a stop by signal, 13 when another process listens on --port (the line
                'ringcheck serve-reference: HOST:PORT is in use' says which; a supervisor can pick another port),
                2 for any other start failure (settings, database, users file).

                """ + "\n" + ReferenceKits.registered.helpSections,
            arguments: [
                ArgumentSpec(
                    name: "profile",
                    help: "Which reference backend: \(ReferenceKits.registered.namesSentence) (as --profile).")
            ],
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
                    "api-shape", "SHAPE",
                    help: "Which HTTP API to serve: reference, alternate or node (see API SHAPES above).",
                    default: "reference"),
                .value(
                    "log", "FILE",
                    help: "Log each request and push attempt to FILE (- for standard output); no tokens or payloads.",
                    default: "no log"),
                .flag("quiet", short: "q", help: "Print nothing but errors."),
                .value(
                    "profile", "NAME", help: "Which reference backend: \(ReferenceKits.registered.namesSentence).",
                    default: Profiles.defaultProfile.name),
                .flag(
                    "mock-settings", help: "onesignal: take unset ONESIGNAL_* from the mocks' RINGCHECK_ONESIGNAL_*."),
                .value(
                    "unconfigured-prefix", "PATH",
                    help: "onesignal: also serve an unconfigured twin under PATH (e.g. /unconfigured).", default: "none"
                ),
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
    }

    /// The reference to serve, set up from the arguments (not yet listening).
    var served: any ServedReference
    /// What it is, for "cannot start …".
    var title: String
    var quiet: Bool

    init(arguments: ParsedArguments) throws {
        let kit = try Self.kit(arguments)
        served = try kit.served(arguments, command: Self.configuration.name)
        title = kit.title
        quiet = arguments.flag("quiet")
    }

    /// The kit the positional profile or `--profile` names (the default profile's without either); a usage
    /// error naming the kits for another name, or for two names that differ.
    static func kit(_ arguments: ParsedArguments) throws -> any ReferenceKit {
        let given = [arguments.positionals.first, arguments.value("profile")].compactMap { $0 }
        if given.count == 2, given[0] != given[1] {
            throw UsageError(
                message: "the profile is '\(given[0])' but --profile is '\(given[1])'; name it once",
                command: configuration.name)
        }
        guard let name = given.first else { return ReferenceKits.defaultKit }
        guard let kit = ReferenceKits.registered.named(name) else {
            throw UsageError(
                message: "unknown --profile '\(Suggestion.shown(name))'; use \(ReferenceKits.registered.namesSentence)",
                command: configuration.name)
        }
        return kit
    }

    func run() async throws -> ExitCode {
        // Caught from before the server announces itself, so a supervisor's early stop is never lost.
        try TerminationSignals.install()
        let running: RunningReference
        do { running = try await served.start() } catch let error as HTTPServerError
            where error.code == Int(EADDRINUSE) && error.operation.hasPrefix("listen")
        {
            Console.error("\(ServedReferenceText.portInUse(host: served.host, port: served.port)) (\(error))")
            return .portInUse
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(message: "cannot start \(title): \(error)")
        }
        if !quiet { Console.out(running.banner) }
        let signal = await TerminationSignals.wait()
        await running.stop()
        if !quiet { Console.out("ringcheck serve-reference: stopped (signal \(signal)).") }
        return .success
    }
}
