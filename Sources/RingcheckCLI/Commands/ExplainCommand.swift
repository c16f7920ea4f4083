import Conformance
import Foundation

/// `ringcheck explain ID`: what a scenario does, why, and the requirements it evidences.
struct ExplainCommand: RingcheckCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "explain",
            abstract: "Explain a scenario (what it does and why) or a requirement (its text and the scenarios for it).",
            arguments: [ArgumentSpec(name: "ID", help: "A scenario ID or a requirement ID.", optional: false)],
            options: SuiteChoice.options + [
                .flag("json", help: "Print it as JSON (the shape is in docs/commands.md, 'ringcheck explain').")
            ],
            examples: [
                "ringcheck explain arbitration.two-devices-race", "ringcheck explain CALLX-APNS-5",
                "ringcheck explain arbitration.two-devices-race --json",
            ])
    }

    var id: String
    var suiteChoice: SuiteChoice
    var json: Bool

    init(arguments: ParsedArguments) throws {
        id = arguments.positionals.first ?? ""
        suiteChoice = try SuiteChoice(arguments: arguments)
        json = arguments.flag("json")
    }

    func run() async throws -> ExitCode {
        let suite = try suiteChoice.load(command: Self.configuration.name)
        if let s = suite.scenario(id) {
            let rerun = SuiteLocator.rerunCommand(s.id, suite: suite)
            Console.out(
                json
                    ? Self.json(s, catalogue: suite.catalogue, rerun: rerun).serialized(sortedKeys: true, pretty: true)
                    : Self.explain(s, catalogue: suite.catalogue, rerun: rerun))
            return .success
        }
        if json, let r = suite.catalogue[id] {
            Console.out(Self.json(r, suite: suite).serialized(sortedKeys: true, pretty: true))
            return .success
        }
        if let r = suite.catalogue[id] {
            var out = "\(r.id) (\(r.level.rawValue)) — \(r.section)\n  \(r.statement)\n"
            if let note = r.note { out += "  Note: \(note)\n" }
            let evidencing = suite.scenarios(evidencing: r.id)
            out += "\nScenarios evidencing it" + (evidencing.isEmpty ? ": none" : ":") + "\n"
            for s in evidencing { out += "  \(s.id)  \(s.title)\n" }
            Console.out(out)
            return .success
        }
        let ids = suite.scenarios.map(\.id) + suite.catalogue.ids
        var message = "no scenario or requirement '\(Suggestion.shown(id))'"
        if let close = Suggestion.closest(to: id, among: ids, limit: 4) { message += "; did you mean '\(close)'?" }
        throw UsageError(message: message, command: Self.configuration.name)
    }

    static func explain(_ s: Scenario, catalogue: RequirementCatalogue, rerun: String) -> String {
        var out = "\(s.id): \(s.title)\n  defined in \(s.file):\(s.mark.line)\n"
        if let d = s.description { out += "\n" + d.trimmingCharacters(in: .whitespacesAndNewlines) + "\n" }
        if !s.needs.isEmpty {
            out += "\nNeeds: \(s.needs.map(\.rawValue).joined(separator: ", ")) (else not applicable)\n"
        }
        out += "\nUsers: \(s.allUsers.joined(separator: ", ")) (fresh accounts per run)\n"
        if !s.devices.isEmpty {
            out += "Devices (fresh installation and token each):\n"
            for d in s.devices {
                out +=
                    "  \(d.name): \(d.user)'s \(d.kind.rawValue)\(d.environment.map { " (\($0.rawValue))" } ?? "")\(d.registered ? "" : ", not registered at start")\n"
            }
        }
        out += "\nSteps:\n"
        for step in explainedSteps(s, catalogue: catalogue) {
            out += "  \(step.indent ? "    " : "")\(step.path) \(step.kind): \(step.says)\n"
            if let why = step.why { out += "  \(step.indent ? "    " : "")    why: \(why)\n" }
            if let note = step.comment { out += "  \(step.indent ? "    " : "")    note: \(note)\n" }
        }
        out += "\nRequirements:\n"
        for id in s.requirements {
            if let r = catalogue[id] {
                out += "  \(r.id) (\(r.level.rawValue), \(r.section)): \(r.statement)\n"
            } else {
                out += "  \(id)\n"
            }
        }
        out += "\nRe-run: " + rerun
        return out
    }
}
