import AllProfiles
import Conformance

/// What the shell completions and the man page are generated from: every command's name, abstract and
/// options, read from the commands' own configurations (`Ringcheck.commands`), so neither can drift
/// from what the parser accepts.
struct CommandCatalogue {
    /// One command as a completion script sees it.
    struct Entry {
        var name: String
        var abstract: String
        /// `--name` (and `-x`) spellings of every option, `--help` included.
        var optionSpellings: [String]
        /// The options that take a value, and what completes it.
        var valueOptions: [(spelling: String, values: ValueKind)]
        /// Fixed first words (`report merge`).
        var actions: [String]
    }

    /// What completes an option's value.
    enum ValueKind: Equatable {
        /// A path (FILE, DIR, PATH, …).
        case path
        /// One of these words.
        case words([String])
        /// Anything (a number, a name).
        case free
    }

    let entries: [Entry]

    init(commands: [any RingcheckCommand.Type] = Ringcheck.commands) {
        entries = commands.map { Self.entry(for: $0.configuration) }
    }

    static func entry(for config: CommandConfiguration) -> Entry {
        var spellings: [String] = []
        var values: [(String, ValueKind)] = []
        for option in config.options {
            let names = ["--" + option.name] + (option.short.map { ["-" + String($0)] } ?? [])
            spellings += names
            if let valueName = option.valueName {
                for name in names { values.append((name, valueKind(option: option.name, valueName: valueName))) }
            }
        }
        spellings += ["--help", "-h"]
        let actions = config.arguments.first.flatMap { first in
            first.optional ? nil : first.help.contains("only '") ? [first.name] : nil
        }
        return Entry(
            name: config.name, abstract: config.abstract, optionSpellings: spellings, valueOptions: values,
            actions: actions ?? [])
    }

    /// Paths for FILE/DIR/PATH placeholders; the profile names for `--profile`; free text otherwise.
    static func valueKind(option: String, valueName: String) -> ValueKind {
        if option == "profile" { return .words(Profiles.names + ["all"]) }
        let pathWords = ["FILE", "DIR", "PATH"]
        if pathWords.contains(where: { valueName.uppercased().contains($0) }) { return .path }
        return .free
    }

    /// Every command name, `help` included.
    var commandNames: [String] { entries.map(\.name) + ["help"] }
}
