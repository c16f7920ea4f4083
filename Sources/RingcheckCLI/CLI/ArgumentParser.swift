import Conformance
import InputLimits

/// Options and positional arguments after parsing, with typed accessors that report bad values.
struct ParsedArguments: ReferenceArguments {
    var command: String
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The declared ranges of the numeric options given (filled by the parser, which has checked them).
    var numbers: [String: NumberRange] = [:]

    /// A whole-number option's value, already checked against its declared range; `range` narrows it further.
    func int(_ name: String, in range: ClosedRange<Int>? = nil) throws -> Int? {
        guard let raw = value(name) else { return nil }
        let declared = numbers[name] ?? .whole(Int.min / 2...Int.max / 2)
        let bounds = range.map { NumberRange.whole($0) } ?? declared
        do {
            _ = try CheckedNumber.value(raw, in: declared)
            return Int(try CheckedNumber.int64(raw, in: Int64(bounds.lower)...Int64(bounds.upper)))
        } catch {
            throw UsageError(message: "--\(name) \(error)", command: command)
        }
    }

    /// A numeric option's value, checked against its declared range (finite, so any conversion is safe).
    func double(_ name: String) throws -> Double? {
        guard let raw = value(name) else { return nil }
        do {
            return try CheckedNumber.value(raw, in: numbers[name] ?? .seconds(upTo: 1e9))
        } catch {
            throw UsageError(message: "--\(name) \(error)", command: command)
        }
    }

    /// A seconds option as a `Duration` (milliseconds, rounded), checked against its declared range.
    func duration(_ name: String) throws -> Duration? {
        try double(name).map { .milliseconds(CheckedNumber.milliseconds(seconds: $0) ?? 0) }
    }
}

/// Parses `--name value`, `--name=value`, flags, `-x` short flags and `--` (end of options).
enum ArgumentParser {
    static func parse(_ args: [String], for config: CommandConfiguration) throws -> ParsedArguments {
        var result = ParsedArguments(command: config.name)
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" {
                optionsEnded = true
                continue
            }
            let (spec, inlineValue) = try lookUp(arg, in: config)
            if spec.valueName == nil {
                if inlineValue != nil {
                    throw UsageError(message: "--\(spec.name) takes no value", command: config.name)
                }
                result.flags.insert(spec.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if spec.optionalValue && (i >= args.count || isOption(args[i])) {
                if result.flags.contains(spec.name) || result.values[spec.name] != nil {
                    throw UsageError(message: "--\(spec.name) was given more than once", command: config.name)
                }
                result.flags.insert(spec.name)
                continue
            } else if i < args.count {
                value = args[i]
                i += 1
            } else {
                throw UsageError(message: "--\(spec.name) needs a value (\(spec.valueName!))", command: config.name)
            }
            if let range = spec.number {
                // Every number on the command line is checked here, against the range its option declares,
                // before any command sees it: a value such as 1e30 or inf never reaches an integer conversion.
                do { _ = try CheckedNumber.value(value, in: range) } catch {
                    throw UsageError(message: "--\(spec.name) \(error)", command: config.name)
                }
                result.numbers[spec.name] = range
            }
            if !spec.repeatable, result.values[spec.name] != nil || result.flags.contains(spec.name) {
                throw UsageError(message: "--\(spec.name) was given more than once", command: config.name)
            }
            result.values[spec.name, default: []].append(value)
        }
        let maxPositionals = config.arguments.contains { $0.repeating } ? Int.max : config.arguments.count
        if result.positionals.count > maxPositionals {
            throw UsageError(
                message: "unexpected argument '\(result.positionals[maxPositionals])'", command: config.name)
        }
        let required = config.arguments.filter { !$0.optional }.count
        if result.positionals.count < required {
            throw UsageError(
                message: "missing \(config.arguments[result.positionals.count].name)", command: config.name)
        }
        return result
    }

    /// Whether `arg` is an option rather than the value of an option whose value may be left out: a
    /// negative number (`--auto-answer -1`) is a value, so its range check names the option.
    private static func isOption(_ arg: String) -> Bool {
        guard arg.hasPrefix("-"), let next = arg.dropFirst().first else { return false }
        return !(next.isASCII && (next.isNumber || next == "."))
    }

    private static func lookUp(_ arg: String, in config: CommandConfiguration) throws -> (OptionSpec, String?) {
        if arg.hasPrefix("--") {
            let body = arg.dropFirst(2)
            let name: Substring
            var inline: String?
            if let eq = body.firstIndex(of: "=") {
                name = body[..<eq]
                inline = String(body[body.index(after: eq)...])
            } else {
                name = body
            }
            if let spec = config.options.first(where: { $0.name == name }) { return (spec, inline) }
            throw UsageError(message: unknownMessage("--\(name)", config), command: config.name)
        }
        let letter = arg.dropFirst()
        if letter.count == 1, let spec = config.options.first(where: { $0.short == letter.first }) {
            return (spec, nil)
        }
        throw UsageError(message: unknownMessage(arg, config), command: config.name)
    }

    private static func unknownMessage(_ arg: String, _ config: CommandConfiguration) -> String {
        let names = config.options.map { "--" + $0.name }
        if let close = Suggestion.closest(to: arg, among: names, limit: 3) {
            return "unknown option '\(Suggestion.shown(arg))'; did you mean '\(close)'?"
        }
        return "unknown option '\(Suggestion.shown(arg))'"
    }
}
