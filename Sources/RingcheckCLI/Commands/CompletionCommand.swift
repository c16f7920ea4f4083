import Conformance

/// `ringcheck completion bash|zsh|fish`: prints a shell completion script generated from the commands'
/// own declarations (`CommandCatalogue`), so it lists exactly the commands and options the parser takes.
struct CompletionCommand: RingcheckCommand {
    /// Computed, as every command's is, so what it reads of the registry in force is read at each use.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "completion",
            abstract: "Print a shell completion script (bash, zsh or fish).",
            discussion: """
                The script completes commands, their options, profile names and file paths. Install it where your
                shell reads completions, e.g.:
                  ringcheck completion bash > /etc/bash_completion.d/ringcheck
                  ringcheck completion zsh > "${fpath[1]}/_ringcheck"
                  ringcheck completion fish > ~/.config/fish/completions/ringcheck.fish
                The Debian package ('make deb') installs all three, and the man page ('ringcheck help --man').
                """,
            arguments: [
                ArgumentSpec(
                    name: "shell", help: "bash, zsh or fish.", optional: false)
            ],
            examples: ["ringcheck completion bash > ~/.local/share/bash-completion/completions/ringcheck"])
    }

    var shell: ShellCompletion

    init(arguments: ParsedArguments) throws {
        let names = ShellCompletion.allCases.map(\.rawValue)
        guard arguments.positionals.count == 1, let shell = ShellCompletion(rawValue: arguments.positionals[0])
        else {
            let given = arguments.positionals.joined(separator: " ")
            throw UsageError(
                message: given.isEmpty
                    ? "name a shell: \(names.joined(separator: ", "))"
                    : "unknown shell '\(given)' (shells: \(names.joined(separator: ", ")))",
                command: Self.configuration.name)
        }
        self.shell = shell
    }

    func run() async throws -> ExitCode {
        Console.out(shell.script())
        return .success
    }
}
