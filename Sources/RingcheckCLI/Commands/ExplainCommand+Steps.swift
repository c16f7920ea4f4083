import Conformance
import Foundation
import JSON

extension ExplainCommand {
    /// One step as `explain` shows it.
    struct ExplainedStep {
        var path: String
        var kind: String
        var line: Int
        /// What the step does.
        var says: String
        /// The requirement it judges, with its level and statement.
        var why: String?
        var requirement: String?
        /// The comment written above the step in the scenario file.
        var comment: String?
        /// A step inside a `race`.
        var indent: Bool
    }

    /// The scenario's steps (a race's inner steps after it), each with its sentence, requirement and comment.
    static func explainedSteps(_ s: Scenario, catalogue: RequirementCatalogue) -> [ExplainedStep] {
        // A built-in suite's file is read from the binary: its comments are explain's notes too.
        let lines = (SuiteFiles.text(s.file) ?? "")
            .split(separator: "\n", omittingEmptySubsequences: false)
        func explained(_ step: ScenarioStep, indent: Bool) -> ExplainedStep {
            let requirement = StepExplanation.requirement(step.step)
            let why = requirement.map { id in
                catalogue[id].map { "\(id) (\($0.level.rawValue)): \($0.statement)" } ?? id
            }
            return ExplainedStep(
                path: step.path, kind: step.step.kind, line: step.mark.line, says: StepExplanation.sentence(step.step),
                why: why, requirement: requirement,
                comment: StepExplanation.comment(file: s.file, line: step.mark.line, lines: lines), indent: indent)
        }
        var out: [ExplainedStep] = []
        for step in s.steps {
            out.append(explained(step, indent: false))
            if case .race(let r) = step.step { out += r.steps.map { explained($0, indent: true) } }
        }
        return out
    }

    /// `explain SCENARIO --json`.
    static func json(_ s: Scenario, catalogue: RequirementCatalogue, rerun: String) -> JSONValue {
        func string(_ v: String?) -> JSONValue { v.map { .string($0) } ?? .null }
        let steps: [JSONValue] = explainedSteps(s, catalogue: catalogue).map { step in
            [
                "path": .string(step.path), "kind": .string(step.kind), "line": .int(step.line),
                "says": .string(step.says), "requirement": string(step.requirement), "comment": string(step.comment),
            ]
        }
        let requirements: [JSONValue] = s.requirements.map { id in
            let r = catalogue[id]
            return [
                "id": .string(id), "level": string(r?.level.rawValue), "section": string(r?.section),
                "statement": string(r?.statement),
            ]
        }
        let devices: [JSONValue] = s.devices.map { d in
            [
                "name": .string(d.name), "user": .string(d.user), "kind": .string(d.kind.rawValue),
                "environment": string(d.environment?.rawValue), "registered": .bool(d.registered),
            ]
        }
        return [
            "type": "scenario", "id": .string(s.id), "title": .string(s.title), "file": .string(s.file),
            "line": .int(s.mark.line),
            "description": string(s.description?.trimmingCharacters(in: .whitespacesAndNewlines)),
            "tags": .array(s.tags.map { .string($0) }), "needs": .array(s.needs.map { .string($0.rawValue) }),
            "users": .array(s.allUsers.map { .string($0) }), "devices": .array(devices), "steps": .array(steps),
            "requirements": .array(requirements), "rerunCommand": .string(rerun),
        ]
    }

    /// `explain REQUIREMENT --json`.
    static func json(_ r: Requirement, suite: Suite) -> JSONValue {
        [
            "type": "requirement", "id": .string(r.id), "level": .string(r.level.rawValue),
            "section": .string(r.section), "statement": .string(r.statement),
            "note": r.note.map { .string($0) } ?? .null,
            "scenarios": .array(
                suite.scenarios(evidencing: r.id).map { ["id": .string($0.id), "title": .string($0.title)] }),
        ]
    }
}
