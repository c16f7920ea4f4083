import Conformance
import Foundation

/// `ringcheck list`: the scenarios of a suite with their requirements, levels and tags.
struct ListCommand: RingcheckCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List a suite's scenarios: IDs, titles, requirements with levels, tags.",
        arguments: [ArgumentSpec(name: "ID or glob", help: "Scenarios to list (default: all).", repeating: true)],
        options: SuiteChoice.options + [
            .value("tag", "T", help: "Only scenarios with this tag.", repeatable: true)
        ],
        examples: ["ringcheck list", "ringcheck list 'tokens.*'", "ringcheck list --tag smoke"])

    var patterns: [String]
    var suiteChoice: SuiteChoice
    var tags: [String]

    init(arguments: ParsedArguments) throws {
        patterns = arguments.positionals
        suiteChoice = try SuiteChoice(arguments: arguments)
        tags = arguments.all("tag")
    }

    func run() async throws -> ExitCode {
        let suite = try suiteChoice.load(command: Self.configuration.name)
        let (scenarios, unmatched) = ScenarioSelection(patterns: patterns, tags: tags).apply(to: suite.scenarios)
        if !unmatched.isEmpty {
            throw UsageError(
                message: "no scenario matches '\(unmatched.joined(separator: "', '"))'",
                command: Self.configuration.name)
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
