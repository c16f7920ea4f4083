import Conformance
import Foundation
import InputLimits
import PushMocks
import Signing

/// `ringcheck trigger dialstack`: fire one signed DialStack event at a running backend and show what it did.
struct TriggerCommand: RingcheckCommand {
    static let configuration = CommandConfiguration(
        name: "trigger",
        abstract: "Fire one profile event at a running backend: show the answer and every push it caused, judged.",
        discussion: """
            The profile-shaped twin of `ringcheck call` (Stripe's `stripe trigger`, for our seeds). Only the dialstack
            profile is available so far: it signs one call.mobile_push_wakeup webhook for --user as DialStack does
            (x-dialstack-signature: t=…,v1=…, HMAC-SHA256 of "<t>.<raw body>" with --secret) and posts it to --url,
            then shows the answer and every push ringcheck's mocks receive for the event, and judges them by the
            dialstack profile's rules (suites/dialstack/requirements.yaml).

            Devices: unless --no-devices, two virtual devices of --user, a phone (APNs VoIP, sandbox) and a tablet
            (FCM), register through the backend's token API (PUT {api}/v1/installations/{id}/push-tokens/{kind} with
            Authorization: Bearer --bearer, as the dialstack reference takes them) before the event, and are deleted
            afterwards; each must be woken within 30 s (DIALSTACK-WAKE-1). --bystander USER also registers a phone
            of another user that must get nothing (DIALSTACK-WAKE-2).

            Mocks: the command starts ringcheck's mocks (APNs, FCM, OAuth) for the exchange, as `call` does. A
            backend already running reaches them only where it was told they are: give --mocks-dir DIR (the CA, the
            APNs key and the service account are kept there, and the RINGCHECK_* settings written to
            DIR/mocks.env) and fixed ports (--apns-port, --apns-sandbox-port, --google-port), start the backend once
            with those settings, and trigger as often as you like. When no push reaches the mocks (the backend pushes
            to the real APNs/FCM), the answer alone is shown and judged, and the summary says so.

            Negative cases: --signature wrong-secret (or none, garbage, body-changed, …) and --signature stale must be
            answered 401 and push nothing; --type call.incoming or call.ringing must be answered 2xx and push
            nothing; --redeliver N delivers the same event (same id, signed anew) N more times once its pushes
            arrived: no device may ring again (DIALSTACK-DEDUP-1).

            EXIT STATUS:
              0   every rule held
              1   a violation (each is printed with its requirement ID)
              2   usage or configuration error (also: the mocks cannot start on the given ports)
              3   inconclusive: the backend could not be reached, a device could not be registered, or no push
                  reached the mocks although one was due
            """,
        arguments: [
            ArgumentSpec(name: "PROFILE", help: "The profile whose event to send: dialstack.", optional: false)
        ],
        options: [
            .value("url", "URL", help: "The backend's webhook URL (http://host:port/webhooks/dialstack). Required."),
            .value(
                "secret", "SECRET", help: "The webhook signing secret.",
                default: "$\(Self.secretVariable)"),
            .value("user", "USER", help: "data.user_id: whose devices the event wakes. Required."),
            .value("from", "NUMBER", help: "data.from_number.", default: "+14155551234"),
            .value("to", "NUMBER", help: "data.to_number.", default: "+14155559876"),
            .value(
                "type", "TYPE", help: "The event type: \(DialStackTriggerPlan.eventTypes.joined(separator: ", ")).",
                default: "call.mobile_push_wakeup"),
            .value(
                "signature", "HOW",
                help: "How to sign: \(WebhookSignatureVariant.names.joined(separator: ", ")).", default: "valid"),
            .value(
                "redeliver", "N", help: "Deliver the same event N more times once its pushes arrived.", default: "0",
                number: .whole(0...100)),
            .value("bearer", "TOKEN", help: "--user's bearer token for the token API.", default: "token-<user>"),
            .flag("no-devices", help: "Register no virtual device (the backend's own devices are woken)."),
            .value(
                "bystander", "USER", help: "Also register a phone of USER, which must get no push for the event."),
            .value(
                "bystander-bearer", "TOKEN", help: "The bystander's bearer token.", default: "token-<bystander>"),
            .value("api", "URL", help: "Where the token API is.", default: "the origin of --url"),
            .value(
                "settle", "S", help: "How long to watch for more pushes after the last expected one.", default: "3",
                number: .seconds(upTo: 600)),
            .flag("keep-devices", help: "Leave the virtual devices registered afterwards."),
            .value(
                "mocks-dir", "DIR",
                help: "Keep the mocks' CA and keys here and write their settings to DIR/mocks.env.",
                default: "a new temporary directory"),
            .value("apns-port", "PORT", help: "Port of mock APNs (production).", default: "ephemeral", number: .port),
            .value(
                "apns-sandbox-port", "PORT", help: "Port of mock APNs (sandbox).", default: "ephemeral", number: .port),
            .value("google-port", "PORT", help: "Port of mock FCM and OAuth.", default: "ephemeral", number: .port),
            .flag("json", help: "Write one JSON object per line (NDJSON), then a summary object, instead of text."),
        ],
        examples: [
            "ringcheck trigger dialstack --url http://127.0.0.1:8080/webhooks/dialstack --secret $S --user user-b",
            "ringcheck trigger dialstack --url $URL --user user-b --redeliver 2          # no second ring",
            "ringcheck trigger dialstack --url $URL --user user-b --signature stale      # 401, no push",
            "ringcheck trigger dialstack --url $URL --user user-b --type call.ringing --json",
        ])

    /// Where the secret comes from without --secret: the variable `serve-reference --profile dialstack` reads.
    static let secretVariable = "DIALSTACK_WEBHOOK_SECRET"

    var plan: DialStackTriggerPlan
    var json: Bool
    var mockOptions = MockStack.Options()
    var mocksDir: String?

    init(arguments: ParsedArguments) throws {
        try self.init(arguments: arguments, environment: ProcessInfo.processInfo.environment)
    }

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        let name = Self.configuration.name
        let profile = arguments.positionals.first ?? ""
        guard profile == DialStackProfile().name else {
            throw UsageError(
                message: "trigger knows the dialstack profile only so far, not '\(Suggestion.shown(profile))'",
                command: name)
        }
        guard let url = arguments.value("url"), DialStackTriggerPlan.origin(of: url) != nil else {
            throw UsageError(
                message: "--url URL is required: the backend's webhook, e.g. http://127.0.0.1:8080/webhooks/dialstack",
                command: name)
        }
        guard let secret = arguments.value("secret") ?? environment[Self.secretVariable],
            !secret.isEmpty
        else {
            throw UsageError(
                message:
                    "--secret SECRET (or \(Self.secretVariable)) is required: DialStack signs with it",
                command: name)
        }
        guard let user = arguments.value("user"), !user.isEmpty else {
            throw UsageError(message: "--user USER is required: the data.user_id whose devices wake", command: name)
        }
        plan = DialStackTriggerPlan(webhookURL: url, secret: secret, userId: user)
        plan.fromNumber = arguments.value("from")
        plan.toNumber = arguments.value("to")
        if let type = arguments.value("type") {
            guard DialStackTriggerPlan.eventTypes.contains(type) else {
                throw UsageError(
                    message:
                        "--type '\(Suggestion.shown(type))' is not an event ringcheck sends\(Self.didYouMean(type, DialStackTriggerPlan.eventTypes)) (\(DialStackTriggerPlan.eventTypes.joined(separator: ", ")))",
                    command: name)
            }
            plan.eventType = type
        }
        if let how = arguments.value("signature") {
            guard let variant = WebhookSignatureVariant(name: how) else {
                throw UsageError(
                    message:
                        "--signature '\(Suggestion.shown(how))' is not a way to sign\(Self.didYouMean(how, WebhookSignatureVariant.names)) (\(WebhookSignatureVariant.names.joined(separator: ", ")))",
                    command: name)
            }
            plan.signature = variant
        }
        plan.redeliveries = try arguments.int("redeliver") ?? 0
        if arguments.flag("no-devices") {
            for option in ["bearer", "bystander", "bystander-bearer"] where arguments.value(option) != nil {
                throw UsageError(message: "--no-devices registers no device: --\(option) does not apply", command: name)
            }
        } else {
            plan.bearer = arguments.value("bearer") ?? "token-\(user)"
        }
        if let bystander = arguments.value("bystander") {
            guard bystander != user else {
                throw UsageError(message: "--bystander must be another user than --user '\(user)'", command: name)
            }
            plan.bystander = (bystander, arguments.value("bystander-bearer") ?? "token-\(bystander)")
        } else if arguments.value("bystander-bearer") != nil {
            throw UsageError(message: "--bystander-bearer needs --bystander USER", command: name)
        }
        if let api = arguments.value("api") {
            guard let origin = DialStackTriggerPlan.origin(of: api) else {
                throw UsageError(message: "--api '\(Suggestion.shown(api))' is not an http(s) URL", command: name)
            }
            plan.apiBaseURL = api.count > origin.count ? api : origin
        }
        if let settle = try arguments.duration("settle") { plan.settle = settle }
        plan.keepDevices = arguments.flag("keep-devices")
        json = arguments.flag("json")
        mocksDir = arguments.value("mocks-dir")
        mockOptions.stateDirectory = mocksDir
        mockOptions.persistentCA = mocksDir != nil
        mockOptions.persistentKeys = mocksDir != nil
        mockOptions.apnsPort = try arguments.int("apns-port") ?? 0
        mockOptions.apnsSandboxPort = try arguments.int("apns-sandbox-port") ?? 0
        mockOptions.googlePort = try arguments.int("google-port") ?? 0
    }

    func run() async throws -> ExitCode {
        let mocks: MockStack
        do { mocks = try await MockStack.start(mockOptions) } catch {
            Console.error("ringcheck trigger: cannot start the mocks: \(error)")
            return .usage
        }
        defer { mocks.stop() }
        if let mocksDir {
            let file = (mocksDir as NSString).appendingPathComponent("mocks.env")
            do { try mocks.settings.envFile().write(toFile: file, atomically: true, encoding: .utf8) } catch {
                Console.error("ringcheck trigger: cannot write \(file): \(error.localizedDescription)")
                return .usage
            }
            say(
                "Mocks: APNs \(mocks.settings.apnsURL), sandbox \(mocks.settings.apnsSandboxURL), FCM \(mocks.settings.fcmURL); settings in \(file)"
            )
        } else {
            say(
                "Mocks: APNs \(mocks.settings.apnsURL), FCM \(mocks.settings.fcmURL) (fresh keys and ports: a running "
                    + "backend reaches them only with --mocks-dir and fixed ports, see --help)")
        }
        let printer = CallTimelinePrinter(json: json)
        let trigger: DialStackTrigger
        do { trigger = try DialStackTrigger(plan: plan, mocks: mocks) { printer.print($0) } } catch {
            Console.error("ringcheck trigger: cannot start the HTTP client: \(error)")
            return .inconclusive
        }
        say("Triggering \(plan.eventType) for \(plan.userId) at \(plan.webhookURL)")
        let result = await trigger.run()
        let code: ExitCode
        switch result.outcome {
        case .clean: code = .success
        case .violated: code = .nonConformant
        case .inconclusive: code = .inconclusive
        }
        printSummary(result, code)
        return code
    }

    /// `; did you mean 'x'?` when a candidate is close to `word`, else "".
    static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        Suggestion.closest(to: word, among: candidates, limit: 4).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// A line for the reader: stdout in text mode, stderr beside NDJSON.
    func say(_ text: String) {
        if json { Console.error("ringcheck trigger: " + text) } else { Console.out(text) }
    }

    func printSummary(_ r: DialStackTriggerResult, _ code: ExitCode) {
        if json {
            Console.out(r.json.setting("exitStatus", to: .int(code.rawValue)).serialized())
            return
        }
        var lines = ["", "Outcome: \(r.outcome.rawValue) — \(r.detail) (exit \(code.rawValue))"]
        lines.append("Event \(r.eventId), call \(r.callId)")
        lines.append(
            "Answers: \(r.answers.map { $0.map(String.init) ?? "none" }.joined(separator: ", ")); pushes: \(r.pushes)")
        for v in r.violations { lines.append("Violation \(v.requirement): \(v.message)") }
        Console.out(lines.joined(separator: "\n"))
    }
}
