import Conformance
import InputLimits

/// One option a command accepts, for parsing and for generated `--help`.
struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `env-file`.
    var name: String
    /// A one-letter short name, e.g. `h`.
    var short: Character?
    /// The placeholder shown in help (`PATH`); nil for a flag that takes no value.
    var valueName: String?
    var help: String
    /// Shown as `(default: …)` in help.
    var defaultDescription: String?
    /// May be given more than once.
    var repeatable: Bool
    /// The value may be left out (`--auto-answer` or `--auto-answer 0.5`): without one the option
    /// is recorded as a flag. The next argument is its value unless it starts with `-`.
    var optionalValue = false
    /// The values a numeric option takes; the parser refuses any other (exit 2 naming the option).
    var number: NumberRange?

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, defaultDescription: nil, repeatable: false)
    }

    static func value(
        _ name: String, _ valueName: String, help: String, default defaultDescription: String? = nil,
        repeatable: Bool = false, number: NumberRange? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: nil, valueName: valueName, help: help, defaultDescription: defaultDescription,
            repeatable: repeatable, number: number)
    }

    /// An option whose value may be left out; `ParsedArguments.flag` is true when it was.
    static func optionalValue(
        _ name: String, _ valueName: String, help: String, default defaultDescription: String? = nil,
        number: NumberRange? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: nil, valueName: valueName, help: help, defaultDescription: defaultDescription,
            repeatable: false, optionalValue: true, number: number)
    }
}

/// A positional argument, for parsing and help.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var optional: Bool = true
    var repeating: Bool = false
}

/// What a command is called, what it does and what it accepts.
struct CommandConfiguration: Sendable {
    var name: String
    var abstract: String
    var discussion: String = ""
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var examples: [String] = []
}

/// A subcommand of `ringcheck`, shaped like swift-argument-parser's `AsyncParsableCommand`.
protocol RingcheckCommand {
    static var configuration: CommandConfiguration { get }
    /// Builds the command from parsed arguments; throws `UsageError` for invalid values.
    init(arguments: ParsedArguments) throws
    /// Runs the command and returns the exit status.
    func run() async throws -> ExitCode
}
