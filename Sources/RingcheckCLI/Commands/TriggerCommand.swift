import AllProfiles
import Conformance
import Foundation
import InputLimits
import PushMocks
import Signing

/// `ringcheck trigger PROFILE`: fire one profile exchange at a running backend and show what it did. The profile's
/// part (`Profile.triggerOptions`, a `TriggerProfileOptions`) reads its options and makes its `ProfileTrigger`;
/// this command names no profile outside its help text: it starts the mocks,
/// prints the timeline and the verdict, and removes the virtual devices again, on Ctrl-C too.
struct TriggerCommand: RingcheckCommand {
    /// Built from the registry in force at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "trigger",
            abstract: "Fire one profile event at a running backend: show the answer and every push it caused, judged.",
            discussion: """
                The profile-shaped twin of `ringcheck call` (Stripe's `stripe trigger`, for our seeds): one exchange
                with a running backend, its requests and every push ringcheck's mocks receive for it on a timeline
                (JSON lines with --json), judged by the profile's rules, exit 1 on a broken MUST (a SHOULD not met is a
                warning, as in `call` and `run`). PROFILE is \(profileList).

                \(profiles.map { $0.options.helpSection }.filter { !$0.isEmpty }.joined(separator: "\n\n"))

                Mocks: the command starts ringcheck's mocks (APNs, FCM, OAuth) for the exchange, as `call` does. A
                backend already running reaches them only where it was told they are: give --mocks-dir DIR (the CA, the
                APNs key and the service account are kept there, and the RINGCHECK_* settings written to
                DIR/mocks.env) and fixed ports (--port NAME=PORT for apns, apnsSandbox and google, as `mocks` takes
                them; --apns-port and the like are its aliases), start the backend once with those settings, and
                trigger as often as you like. When no push reaches the mocks (the backend pushes
                to the real APNs/FCM), the answer alone is shown and judged, and the summary says so.

                Ctrl-C (or SIGTERM) removes the virtual devices registered so far and stops the mocks, then exits 130
                (143).

                EXIT STATUS:
                  0   every rule held
                  1   a MUST violated (each is printed with its requirement ID); a SHOULD not met is a warning
                  2   usage or configuration error (also: the mocks cannot start on the given ports)
                  3   inconclusive: the backend could not be reached, a device could not be registered, the key was
                      refused, the kit's answer has no boolean delivered, or no push reached the mocks although one
                      was due
                  130 interrupted (143 on SIGTERM), the virtual devices removed
                """,
            arguments: [
                ArgumentSpec(
                    name: "PROFILE", help: "The profile whose exchange to play: \(profileList).",
                    optional: false
                )
            ],
            options: OptionSpec.built(
                shared: [
                    .value("url", "URL", help: "Required."),
                    .value("user", "USER", help: ""),
                    .flag("no-devices", help: "Register no virtual device (the backend's own devices are pushed)."),
                    .value(
                        "settle", "S", help: "How long to watch for more pushes after the last expected one.",
                        default: "3",
                        number: .seconds(upTo: 600)),
                    .flag("keep-devices", help: "Leave the virtual devices registered afterwards."),
                    .value(
                        "mocks-dir", "DIR",
                        help: "Keep the mocks' CA and keys here and write their settings to DIR/mocks.env.",
                        default: "a new temporary directory"),
                ] + MockPortOptions.specs() + [
                    .flag(
                        "json", help: "Write one JSON object per line (NDJSON), then a summary object, instead of text."
                    )
                ], profiles: profiles.map { ($0.name, $0.options.optionRows) }),
            examples: profiles.flatMap { $0.options.examples })
    }

    /// The profiles `trigger` knows (those with `Profile.triggerOptions`), each with its options, in the order of
    /// the registry in force (`Profiles.registry`, read at use so an injected registry is followed).
    static var profiles: [(name: String, options: any TriggerProfileOptions.Type)] {
        Profiles.registry.all.compactMap { p in p.triggerOptions.map { (p.name, $0) } }
    }

    /// The registered profiles with a trigger, as a sentence lists them (`a, b or c`).
    static var profileList: String {
        profiles.map(\.name).sentenceList("or")
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
        mockOptions.ports = try MockPortOptions.ports(arguments, command: name)
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
            say(
                "Mocks: APNs \(mocks.settings.apnsURL), sandbox \(mocks.settings.apnsSandboxURL), FCM \(mocks.settings.fcmURL)\(Self.moreEndpoints(mocks)); settings in \(file)"
            )
        } else {
            say(
                "Mocks: APNs \(mocks.settings.apnsURL), FCM \(mocks.settings.fcmURL) (fresh keys and ports: a running "
                    + "backend reaches them only with --mocks-dir and fixed ports, see --help)")
        }
        let trigger: any ProfileTrigger
        do { trigger = try profile.trigger(mocks: mocks) { printer.print($0) } } catch {
            Console.error("ringcheck trigger: cannot start the trigger: \(error)")
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

    /// `, OneSignal https://127.0.0.1:8446`: the URL (its first `*_URL` setting) of each provider beyond the
    /// built-in ones (those whose settings are `MockSettings.extra`), by its display name.
    static func moreEndpoints(_ mocks: MockStack) -> String {
        var out = ""
        var seen: Set<String> = []
        for provider in mocks.providers.all {
            let kind = type(of: provider)
            guard seen.insert(kind.id.rawValue).inserted,
                let name = kind.settingNames.first(where: { $0.hasSuffix("_URL") }),
                let url = mocks.settings.extra.first(where: { $0.name == name })
            else { continue }
            out += ", \(kind.displayName) \(url.value)"
        }
        return out
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
