import AllProfiles
import Conformance
import DialStack
import Foundation
import InputLimits
import PushMocks
import Signing

/// `ringcheck trigger PROFILE`: fire one profile exchange at a running backend and show what it did. The profile's
/// part (`Profile.triggerOptions`, a `TriggerProfileOptions`) reads its options and makes its `ProfileTrigger`;
/// this command names no profile outside its help text: it starts the mocks,
/// prints the timeline and the verdict, and removes the virtual devices again, on Ctrl-C too.
struct TriggerCommand: RingcheckCommand {
    static let configuration = CommandConfiguration(
        name: "trigger",
        abstract: "Fire one profile event at a running backend: show the answer and every push it caused, judged.",
        discussion: """
            The profile-shaped twin of `ringcheck call` (Stripe's `stripe trigger`, for our seeds): one exchange
            with a running backend, its requests and every push ringcheck's mocks receive for it on a timeline
            (JSON lines with --json), judged by the profile's rules, exit 1 on a violation. PROFILE is dialstack,
            push-service or onesignal.

            dialstack: signs one call.mobile_push_wakeup webhook for --user as DialStack does
            (x-dialstack-signature: t=…,v1=…, HMAC-SHA256 of "<t>.<raw body>" with --secret) and posts it to --url,
            then shows the answer and every push for the event, judged by suites/dialstack/requirements.yaml.
            Unless --no-devices, two virtual devices of --user, a phone (APNs VoIP, sandbox) and a tablet (FCM),
            register through the backend's token API (PUT {api}/v1/installations/{id}/push-tokens/{kind} with
            Authorization: Bearer --bearer, as the dialstack reference takes them) before the event, and are
            deleted afterwards; each must be woken within 30 s (DIALSTACK-WAKE-1). --bystander USER also registers
            a phone of another user that must get nothing (DIALSTACK-WAKE-2). Negative cases: --signature
            wrong-secret (or none, garbage, body-changed, …) and --signature stale must be answered 401 and push
            nothing; --type call.incoming or call.ringing must be answered 2xx and push nothing; --redeliver N
            delivers the same event (same id, signed anew) N more times once its pushes arrived: no device may
            ring again (DIALSTACK-DEDUP-1).

            push-service: plays the app server of --app-id (Authorization: Key --api-key) against the service at
            --url. Unless --no-devices, a virtual phone (iOS, sandbox, with a PushKit VoIP token unless --no-voip)
            and tablet (Android) register for the external ID --user (default: a fresh one) through
            POST /api/v1/apps/{appId}/devices, and are deleted afterwards. --send call (the default) sends the
            call's incoming (call.id --call-id, timeout --ring) and, --end-after S later, its ended with the same id;
            --send notification one notification (--heading, --content, --ttl). Every push is judged by
            suites/push-service/requirements.yaml (a call as VoIP with priority 10 on iOS and a high-priority data
            message on Android, the seed's keys as strings, ended to the same devices with the same call_id, a
            notification's alert, ttl, …), every device must be reached within 30 s (PUSHSVC-DEV-1), and once the
            pushes settled the counts (GET /notifications/{id}?app_id=) must agree with what the mocks accepted and
            refused (PUSHSVC-COUNT-1..3; PUSHSVC-CALL-6 for an iPhone without a VoIP token).

            onesignal: makes the kit server at --url run one operation (--send user: POST /push/user, broadcast:
            /push/broadcast, voip: /push/voip; --heading, --content, --data, --options as the seed's PushOptions)
            and shows the OneSignal request it made on ringcheck's mock OneSignal, where --devices devices of the
            External ID --user (default: a fresh UUID) are subscribed in the operation's app; the request is judged
            by suites/onesignal/requirements.yaml (the app and key, the targeting, the VoIP defaults, the options)
            and the kit's delivered against the mock's recipients (ONESIGNAL-DELIV-1/2). The kit must send to the
            mock: start it with the settings of --mocks-dir (RINGCHECK_ONESIGNAL_*, serve-reference --profile
            onesignal --mock-settings) and a fixed --onesignal-port.

            Mocks: the command starts ringcheck's mocks (APNs, FCM, OAuth) for the exchange, as `call` does. A
            backend already running reaches them only where it was told they are: give --mocks-dir DIR (the CA, the
            APNs key and the service account are kept there, and the RINGCHECK_* settings written to
            DIR/mocks.env) and fixed ports (--apns-port, --apns-sandbox-port, --google-port), start the backend once
            with those settings, and trigger as often as you like. When no push reaches the mocks (the backend pushes
            to the real APNs/FCM), the answer alone is shown and judged, and the summary says so.

            Ctrl-C (or SIGTERM) removes the virtual devices registered so far and stops the mocks, then exits 130
            (143).

            EXIT STATUS:
              0   every rule held
              1   a violation (each is printed with its requirement ID)
              2   usage or configuration error (also: the mocks cannot start on the given ports)
              3   inconclusive: the backend could not be reached, a device could not be registered, the key was
                  refused, the kit's answer has no boolean delivered, or no push reached the mocks although one
                  was due
              130 interrupted (143 on SIGTERM), the virtual devices removed
            """,
        arguments: [
            ArgumentSpec(
                name: "PROFILE", help: "The profile whose exchange to play: dialstack, push-service or onesignal.",
                optional: false
            )
        ],
        options: options(
            shared: [
                .value("url", "URL", help: "Required."),
                .value("user", "USER", help: ""),
                .flag("no-devices", help: "Register no virtual device (the backend's own devices are pushed)."),
                .value(
                    "settle", "S", help: "How long to watch for more pushes after the last expected one.", default: "3",
                    number: .seconds(upTo: 600)),
                .flag("keep-devices", help: "Leave the virtual devices registered afterwards."),
                .value(
                    "mocks-dir", "DIR",
                    help: "Keep the mocks' CA and keys here and write their settings to DIR/mocks.env.",
                    default: "a new temporary directory"),
                .value(
                    "apns-port", "PORT", help: "Port of mock APNs (production).", default: "ephemeral", number: .port),
                .value(
                    "apns-sandbox-port", "PORT", help: "Port of mock APNs (sandbox).", default: "ephemeral",
                    number: .port),
                .value("google-port", "PORT", help: "Port of mock FCM and OAuth.", default: "ephemeral", number: .port),
                .value("onesignal-port", "PORT", help: "Port of mock OneSignal.", default: "ephemeral", number: .port),
                .flag("json", help: "Write one JSON object per line (NDJSON), then a summary object, instead of text."),
            ], profiles: profiles),
        examples: [
            "ringcheck trigger dialstack --url http://127.0.0.1:8080/webhooks/dialstack --secret $S --user user-b",
            "ringcheck trigger dialstack --url $URL --user user-b --redeliver 2          # no second ring",
            "ringcheck trigger dialstack --url $URL --user user-b --signature stale      # 401, no push",
            "ringcheck trigger dialstack --url $URL --user user-b --type call.ringing --json",
            "ringcheck trigger push-service --url http://127.0.0.1:8080 --app-id $APP   # a call, key from the variable",
            "ringcheck trigger push-service --url $URL --app-id $APP --send notification --ttl 600 --json",
            "ringcheck trigger onesignal --url http://127.0.0.1:8080 --send voip --options '{\"ttl\":30}' --onesignal-port 8446",
        ])

    /// The profiles `trigger` knows (those with `Profile.triggerOptions`), each with its options, in registry order.
    static let profiles: [(name: String, options: any TriggerProfileOptions.Type)] = Profiles.all.compactMap { p in
        p.triggerOptions.map { (p.name, $0) }
    }

    var profile: any TriggerProfileOptions
    var json: Bool
    var mockOptions = MockStack.Options()
    var mocksDir: String?

    init(arguments: ParsedArguments) throws {
        try self.init(arguments: arguments, environment: ProcessInfo.processInfo.environment)
    }

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        let name = Self.configuration.name
        let profileName = arguments.positionals.first ?? ""
        let names = Self.profiles.map(\.name)
        guard let (chosen, kind) = Self.profiles.first(where: { $0.name == profileName }) else {
            throw UsageError(
                message:
                    "trigger knows the profiles \(names.joined(separator: ", ")), not '\(Suggestion.shown(profileName))'\(Self.didYouMean(profileName, names))",
                command: name)
        }
        for other in Self.profiles where other.name != chosen {
            for option in other.options.ownOptions
            where !kind.ownOptions.contains(option) && (arguments.value(option) != nil || arguments.flag(option)) {
                throw UsageError(
                    message: "--\(option) is a \(other.name) option: it does not apply to trigger \(chosen)",
                    command: name)
            }
        }
        guard let url = arguments.value("url"), TriggerURL.origin(of: url) != nil else {
            throw UsageError(message: "--url URL is required: \(kind.urlExample)", command: name)
        }
        let shared = TriggerSharedOptions(
            url: url, user: arguments.value("user"), noDevices: arguments.flag("no-devices"),
            keepDevices: arguments.flag("keep-devices"), settle: try arguments.duration("settle"))
        do {
            profile = try kind.init(ParsedTriggerArguments(parsed: arguments), shared: shared, environment: environment)
        } catch let error as TriggerOptionError {
            throw UsageError(message: error.message, command: name)
        }
        json = arguments.flag("json")
        mocksDir = arguments.value("mocks-dir")
        mockOptions.stateDirectory = mocksDir
        mockOptions.persistentCA = mocksDir != nil
        mockOptions.persistentKeys = mocksDir != nil
        mockOptions.apnsPort = try arguments.int("apns-port") ?? 0
        mockOptions.apnsSandboxPort = try arguments.int("apns-sandbox-port") ?? 0
        mockOptions.googlePort = try arguments.int("google-port") ?? 0
        mockOptions.ports["onesignal"] = try arguments.int("onesignal-port") ?? 0
    }

    func run() async throws -> ExitCode {
        let printer = CallTimelinePrinter(json: json)
        // Ctrl-C / SIGTERM: the virtual devices are removed, then the mocks stopped (actions run newest first).
        let cleanup = RunCleanup()
        let started = Date()
        do {
            try cleanup.exitOnSignal(command: Self.configuration.name) { signal in
                printer.print(
                    CallTimelineEntry(
                        elapsed: Date().timeIntervalSince(started), kind: .note,
                        message: "interrupted (signal \(signal)): removing the virtual devices",
                        fields: [("signal", .int(Int(signal)))]))
            }
        } catch {
            Console.error("ringcheck trigger: Ctrl-C will not remove the virtual devices: \(error)")
        }
        let mocks: MockStack
        do { mocks = try await MockStack.start(mockOptions) } catch {
            Console.error("ringcheck trigger: cannot start the mocks: \(error)")
            return .usage
        }
        await cleanup.add { await mocks.stop() }
        if let mocksDir {
            let file = (mocksDir as NSString).appendingPathComponent("mocks.env")
            do { try mocks.settings.envFile().write(toFile: file, atomically: true, encoding: .utf8) } catch {
                Console.error("ringcheck trigger: cannot write \(file): \(error.localizedDescription)")
                await cleanup.run()
                return .usage
            }
            let oneSignal = mocks.settings.extra.first { $0.name == "RINGCHECK_ONESIGNAL_URL" }.map {
                ", OneSignal \($0.value)"
            }
            say(
                "Mocks: APNs \(mocks.settings.apnsURL), sandbox \(mocks.settings.apnsSandboxURL), FCM \(mocks.settings.fcmURL)\(oneSignal ?? ""); settings in \(file)"
            )
        } else {
            say(
                "Mocks: APNs \(mocks.settings.apnsURL), FCM \(mocks.settings.fcmURL) (fresh keys and ports: a running "
                    + "backend reaches them only with --mocks-dir and fixed ports, see --help)")
        }
        let trigger: any ProfileTrigger
        do { trigger = try profile.trigger(mocks: mocks) { printer.print($0) } } catch {
            Console.error("ringcheck trigger: cannot start the HTTP client: \(error)")
            await cleanup.run()
            return .inconclusive
        }
        await cleanup.add { await trigger.cleanUp() }
        say(profile.announcement)
        let result = await trigger.run()
        await cleanup.run()
        let code: ExitCode
        switch result.outcome {
        case .clean: code = .success
        case .violated: code = .nonConformant
        case .inconclusive: code = .inconclusive
        }
        if json {
            Console.out(result.json.setting("exitStatus", to: .int(code.rawValue)).serialized())
        } else {
            Console.out(result.textLines(exitStatus: code.rawValue).joined(separator: "\n"))
        }
        return code
    }

    /// `; did you mean 'x'?` when a candidate is close to `word`, else "".
    static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        TriggerOptionError.didYouMean(word, candidates)
    }

    /// A line for the reader: stdout in text mode, stderr beside NDJSON.
    func say(_ text: String) {
        if json { Console.error("ringcheck trigger: " + text) } else { Console.out(text) }
    }
}
