import AllProfiles
import Conformance
import Foundation
import Synchronization

/// `ringcheck`: a conformance testkit and fake caller for call-push backends. The CLI's commands are this
/// library; the `ringcheck` executable's `main.swift` is `await Ringcheck.main()`, and a test executable may
/// dispatch over a registry of its own:
///
/// ```swift
/// let code = await Ringcheck.dispatch(Array(CommandLine.arguments.dropFirst()), profiles: registry)
/// exit(code.rawValue)
/// ```
package struct Ringcheck {
    /// Every subcommand, in the order `--help` lists them (computed: a stored array of metatypes is not
    /// `Sendable`, and a global must be).
    static var commands: [any RingcheckCommand.Type] {
        [
            MocksCommand.self,
            ServeReferenceCommand.self,
            RunCommand.self,
            InitTargetCommand.self,
            ValidateCommand.self,
            CallCommand.self,
            TriggerCommand.self,
            LoadCommand.self,
            ListCommand.self,
            ExplainCommand.self,
            ReportMergeCommand.self,
            CheckPayloadCommand.self,
            CompletionCommand.self,
        ]
    }

    static let abstract = "A conformance testkit and fake caller for call-push backends (APNs VoIP, FCM)."

    package static func main() async {
        await main(profiles: Profiles.registry)
    }

    /// The process's command line run with `profiles` in force, then `exit` with its code: what an executable's
    /// `main.swift` calls (`ringcheck`'s with the shipped profiles, a test executable's with more). Unlike
    /// `dispatch`, the command owns the process: `run` and `call` take over SIGINT and SIGTERM.
    package static func main(profiles: ProfileRegistry) async {
        ownsTheProcess.store(true, ordering: .relaxed)
        let args = Array(CommandLine.arguments.dropFirst())
        let code = await dispatch(args, profiles: profiles)
        exit(code.rawValue)
    }

    /// Whether the commands run as the process's own command line (`main`) rather than in a process of someone
    /// else's (`dispatch` from a test): only then do `run` and `call` catch SIGINT/SIGTERM and leave with
    /// 128 + the signal. In a test process a command run in process once left its signal watcher behind, which
    /// took the SIGTERM another test sent itself and stopped that test process's signal tests.
    static let ownsTheProcess = Atomic<Bool>(false)

    /// Runs one command line with `profiles` in force instead of the shipped ones (`Profiles.registry`): the
    /// CLI's commands as a library over an injected registry. Console output still goes to standard output and
    /// error unless captured (`Console.capture`).
    package static func dispatch(_ args: [String], profiles: ProfileRegistry) async -> ExitCode {
        await Profiles.$registry.withValue(profiles) { await dispatch(args) }
    }

    static func dispatch(_ args: [String]) async -> ExitCode {
        guard let first = args.first else {
            Console.error(topLevelHelp())
            return .usage
        }
        switch first {
        case "-h", "--help", "help":
            if args.count > 1, args[1] == "--man" {
                Console.out(ManPage.render())
                return .success
            }
            if args.count > 1, let command = commands.first(where: { $0.configuration.name == args[1] }) {
                Console.out(HelpFormatter.help(for: command.configuration))
            } else {
                Console.out(topLevelHelp())
            }
            return .success
        case "--version", "version":
            Console.out(RingcheckVersion.line)
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.configuration.name == first }) else {
            let names = commands.map { $0.configuration.name }
            var message = "ringcheck: unknown command '\(Suggestion.shown(first))'"
            if let close = Suggestion.closest(to: first, among: names, limit: 2) {
                message += "; did you mean '\(close)'?"
            }
            Console.error(message + "\nRun 'ringcheck --help' for the list of commands.")
            return .usage
        }
        let rest = Array(args.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            Console.out(HelpFormatter.help(for: command.configuration))
            return .success
        }
        do {
            let parsed = try ArgumentParser.parse(rest, for: command.configuration)
            let instance = try command.init(arguments: parsed)
            return try await instance.run()
        } catch let error as UsageError {
            Console.error("ringcheck \(command.configuration.name): \(error.message)")
            Console.error("Usage: \(HelpFormatter.usage(for: command.configuration))")
            Console.error("Run 'ringcheck \(command.configuration.name) --help' for every option.")
            return .usage
        } catch let error as ConfigurationError {
            Console.error("ringcheck \(command.configuration.name): \(error.message)")
            return .usage
        } catch {
            Console.error("ringcheck \(command.configuration.name): \(error)")
            return .inconclusive
        }
    }

    static func topLevelHelp() -> String {
        var out = "OVERVIEW: \(abstract)\n\nUSAGE: ringcheck <command> [<options>]\n\nCOMMANDS:\n"
        for c in commands { out += HelpFormatter.row(c.configuration.name, c.configuration.abstract) }
        out += "\nOPTIONS:\n"
        out += HelpFormatter.row("-h, --help", "Show help information.")
        out += HelpFormatter.row("--version", "Show the version and the commit it was built from.")
        out += "\nEXIT CODES:\n"
        for (codes, meaning) in ExitCode.documented {
            out += "  " + codes.padding(toLength: 11, withPad: " ", startingAt: 0) + meaning + "\n"
        }
        out += "\nSee 'ringcheck <command> --help' for a command's options.\n"
        return out
    }
}
