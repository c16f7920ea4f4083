import Conformance
import Foundation
import InputLimits
import TestSupport
import Testing

@testable import RingcheckCLI

/// Every number on the command line is range-checked before a command sees it: hostile values are
/// exit 2 naming the option, never a trap (`Int64(1e30)`) or a command that starts and then dies.
/// The numeric options are read from the commands' own declarations, so a new one is covered.
@Suite(.heavyTraffic) struct NumericOptionTests {
    /// What a hostile user types: too big, not finite, signed zero, negative, and a 400-digit number.
    static let hostile = ["1e30", "inf", "nan", "-0", "-1", "1" + String(repeating: "0", count: 399)]

    /// Placeholders that say an option takes a number; each such option must declare its range.
    static let numericPlaceholders: Set<String> = ["N", "S", "PORT", "MS", "SECONDS"]

    /// Every (command, option) whose value is a number, from the declarations.
    static var numericOptions: [(command: CommandConfiguration, option: OptionSpec)] {
        Ringcheck.commands.flatMap { command in
            command.configuration.options.filter { $0.number != nil }.map { (command.configuration, $0) }
        }
    }

    /// Whether `text` is a legal value of `range`, decided here without the code under test.
    static func legal(_ text: String, _ range: NumberRange) -> Bool {
        guard text.count <= 64, let v = Double(text), v.isFinite else { return false }
        if range.whole && (Int64(exactly: v) == nil || text.contains(where: { $0 == "e" || $0 == "." })) {
            return false
        }
        return (range.lowerExclusive ? v > range.lower : v >= range.lower) && v <= range.upper
    }

    @Test func everyOptionTakingANumberDeclaresItsRange() {
        let undeclared = Ringcheck.commands.flatMap { command in
            command.configuration.options.filter {
                $0.number == nil && Self.numericPlaceholders.contains($0.valueName ?? "")
            }.map { "\(command.configuration.name) --\($0.name)" }
        }
        #expect(undeclared.isEmpty, "numeric options without a declared range: \(undeclared)")
        // The list is not empty by accident: call's four waits and the ports are among them.
        let names = Set(Self.numericOptions.map { "\($0.command.name) --\($0.option.name)" })
        for expected in [
            "call --hangup-after", "call --cancel-after", "call --auto-answer", "call --ring-timeout",
            "mocks --apns-port", "load --rate", "run --repeat", "serve-reference --port",
        ] {
            #expect(names.contains(expected), "\(expected) is not declared numeric")
        }
    }

    @Test func everyNumericOptionRefusesHostileValuesNamingItself() throws {
        var checked = 0
        for (command, option) in Self.numericOptions {
            let range = try #require(option.number)
            for value in Self.hostile {
                for form in [["--\(option.name)=\(value)"], ["--\(option.name)", value]] {
                    let expectLegal = Self.legal(value, range)
                    do {
                        let parsed = try ArgumentParser.parse(form, for: command)
                        // Accepted: the value must be legal, and reading it must not trap.
                        #expect(expectLegal, "\(command.name) \(form) was accepted")
                        if range.whole { _ = try parsed.int(option.name) } else { _ = try parsed.duration(option.name) }
                    } catch let error as UsageError {
                        if expectLegal {
                            // A legal value may still fail on something else (a missing argument), not on itself.
                            #expect(!error.message.hasPrefix("--\(option.name) "), "\(command.name) \(form): \(error)")
                        } else {
                            #expect(
                                error.message.hasPrefix("--\(option.name) takes "), "\(command.name) \(form): \(error)")
                        }
                    }
                    checked += 1
                }
            }
        }
        #expect(checked >= 20 * Self.hostile.count * 2)
    }

    /// Through the binary, as the reproductions ran it: exit 2 naming the option, no signal.
    @Test func theBinaryRefusesEveryIllegalValueWithExitTwo() async throws {
        var cases: [(args: [String], option: String)] = []
        for (command, option) in Self.numericOptions {
            for value in Self.hostile where !Self.legal(value, option.number!) {
                cases.append(([command.name, "--\(option.name)=\(value)"], option.name))
            }
        }
        // Options whose value holds a number inside a larger form.
        for value in Self.hostile {
            cases.append((["run", "--shard", value], "shard"))
            cases.append((["run", "--shard", "1/\(value)"], "shard"))
            // 127.0.0.1:-0 is port 0 (any free port), a legal value that would start the mocks.
            if value != "-0" {
                cases.append(
                    (["mocks", "--impersonate", "--impersonate-listen", "127.0.0.1:\(value)"], "impersonate-listen"))
                cases.append((["mocks", "--impersonate", "--proxy-listen", "127.0.0.1:\(value)"], "proxy-listen"))
            }
        }
        // The reports, with the values that crashed `ringcheck call`.
        for (option, value) in [
            ("hangup-after", "1e30"), ("cancel-after", "inf"), ("auto-answer", "1e30"), ("ring-timeout", "1e19"),
            ("ring-timeout", "9.3e15"), ("auto-answer", "-1"), ("auto-decline", "nan"),
        ] {
            cases.append((["call", "--to", "user-b", "--\(option)", value], option))
        }
        for (args, option) in cases {
            let r = try await RingcheckBinary.run(args, timeout: 60)
            #expect(r.status == 2, "\(args): exit \(r.status)\n\(r.stderr)")
            #expect(r.stderr.contains("--\(option)"), "\(args): \(r.stderr)")
            #expect(!r.stdout.contains("listening on") && !r.stdout.contains("Calling "), "\(args) started")
        }
    }

    @Test func theLargestLegalWaitsConvertWithoutTrapping() throws {
        let parsed = try ArgumentParser.parse(
            ["--to", "b", "--hangup-after", "86400", "--ring-timeout", "86400", "--auto-answer", "86400"],
            for: CallCommand.configuration)
        let call = try CallCommand(arguments: parsed)
        #expect(call.hangupAfter == .seconds(86_400) && call.responseDelay == .seconds(86_400))
        #expect(call.ringTimeout == 86_400)
    }
}
