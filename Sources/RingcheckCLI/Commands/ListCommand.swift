import AllProfiles
import Conformance
import Foundation
import JSON

/// `ringcheck list`: the scenarios of a suite with their requirements, levels and tags.
struct ListCommand: RingcheckCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "list",
            abstract: "List a suite's scenarios: IDs, titles, requirements with levels, tags.",
            arguments: [ArgumentSpec(name: "ID or glob", help: "Scenarios to list (default: all).", repeating: true)],
            options: SuiteChoice.options + [
                .value("tag", "T", help: "Only scenarios with this tag.", repeatable: true),
                .flag(
                    "json",
                    help: "Print the list as JSON (the shape is in docs/commands.md, 'ringcheck explain')."),
            ],
            examples: [
                "ringcheck list", "ringcheck list 'tokens.*'", "ringcheck list --tag smoke", "ringcheck list --json",
            ])
    }

    var patterns: [String]
    var suiteChoice: SuiteChoice
    var tags: [String]
    var json: Bool

    init(arguments: ParsedArguments) throws {
        patterns = arguments.positionals
        suiteChoice = try SuiteChoice(arguments: arguments)
        tags = arguments.all("tag")
        json = arguments.flag("json")
    }

    func run() async throws -> ExitCode {
        let suite = try suiteChoice.load(command: Self.configuration.name)
        let (scenarios, unmatched) = ScenarioSelection(patterns: patterns, tags: tags).apply(to: suite.scenarios)
        if !unmatched.isEmpty {
            throw UsageError(
                message: "no scenario matches '\(unmatched.joined(separator: "', '"))'",
                command: Self.configuration.name)
        }
        if json {
            Console.out(Self.json(scenarios, suite: suite).serialized(sortedKeys: true, pretty: true))
            return .success
        }
        var out =
            "\(suite.catalogue.suite.title) (suite \(suite.catalogue.suite.id) \(suite.catalogue.suite.version))\n"
        for s in scenarios {
            out += "\n\(s.id)  \(s.title)\n"
            let reqs = s.requirements.map { id in "\(id) \(suite.catalogue[id]?.level.rawValue ?? "?")" }
            out += "    requirements: \(reqs.joined(separator: ", "))\n"
            if !s.tags.isEmpty { out += "    tags: \(s.tags.joined(separator: ", "))\n" }
            if !s.needs.isEmpty { out += "    needs: \(s.needs.map(\.rawValue).joined(separator: ", "))\n" }
        }
        out += "\n\(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s")"
        Console.out(out)
        return .success
    }
}

extension ListCommand {
    /// `list --json`: the suite, then each selected scenario with its requirements (and their levels),
    /// tags and needs.
    static func json(_ scenarios: [Scenario], suite: Suite) -> JSONValue {
        let info = suite.catalogue.suite
        let items: [JSONValue] = scenarios.map { s in
            [
                "id": .string(s.id), "title": .string(s.title),
                "requirements": .array(
                    s.requirements.map { id in
                        ["id": .string(id), "level": suite.catalogue[id].map { .string($0.level.rawValue) } ?? .null]
                    }),
                "tags": .array(s.tags.map { .string($0) }), "needs": .array(s.needs.map { .string($0.rawValue) }),
            ]
        }
        return [
            "profile": .string(suite.profile.name),
            "suite": ["id": .string(info.id), "version": .string(info.version), "title": .string(info.title)],
            "count": .int(scenarios.count), "scenarios": .array(items),
        ]
    }
}
