import AllProfiles
import Conformance
import Foundation
import HTTP
import InputLimits

/// `ringcheck serve-reference`: run a profile's reference backend (the default profile's without one) until
/// interrupted.
struct ServeReferenceCommand: RingcheckCommand {
    /// Computed, so its help and profile lists follow the registry in force (`Ringcheck.dispatch(_:profiles:)`):
    /// each kit brings its summary, help section, options and examples (`ReferenceKit`); this command names none.
    static var configuration: CommandConfiguration {
        let kits = ReferenceKits.registered
        let others = kits.defaultFirst.dropFirst().map { "--profile \($0.name): \($0.summary)" }
        return CommandConfiguration(
            name: "serve-reference",
            abstract: "Run \(ReferenceKits.defaultKit.summary)"
                + (others.isEmpty ? "" : " (\(others.joined(separator: "; ")))")
                + ", sending real pushes to the providers its settings name, until interrupted.",
            discussion: """
                Serves a profile's reference backend, a conforming implementation of that profile, until interrupted:
                the profile the argument or --profile names (\(kits.namesSentence); \(Profiles.defaultProfile.name)
                without either). Each profile's section below says what it serves, the options it takes besides
                --host, --port, --defect, --quiet and --profile, and its defects.

                EXIT CODES: 0 after a stop by signal, 13 when another process listens on --port (the line
                'ringcheck serve-reference: HOST:PORT is in use' says which; a supervisor can pick another port),
                2 for any other start failure (settings, database, users file).

                """ + "\n" + kits.helpSections,
            arguments: [
                ArgumentSpec(name: "profile", help: "Which reference backend: \(kits.namesSentence) (as --profile).")
            ],
            options: OptionSpec.built(
                shared: [
                    .value("host", "ADDRESS", help: "Address to listen on.", default: "127.0.0.1"),
                    .value(
                        "port", "PORT", help: "Port to listen on; 0 picks a free one.", default: "8080", number: .port),
                    .value("defect", "NAME", help: "Switch on a defect (see DEFECTS above).", repeatable: true),
                    .flag("quiet", short: "q", help: "Print nothing but errors."),
                    .value(
                        "profile", "NAME", help: "Which reference backend: \(kits.namesSentence).",
                        default: Profiles.defaultProfile.name),
                ], profiles: kits.all.map { ($0.name, $0.serveOptions) }),
            examples: kits.defaultFirst.flatMap(\.serveExamples))
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
