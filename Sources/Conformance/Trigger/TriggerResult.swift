import JSON
import Reports

/// How one `ringcheck trigger` exchange went, whatever the profile: clean, a violation of the profile's MUST rules
/// (each named by its requirement), or not judgeable (the backend could not be reached, or no push reached the
/// mocks). A SHOULD rule not met is a warning (`warnings`): it leaves a clean exchange clean.
/// The profile adds what names its exchange (`facts`: dialstack's event and call, push-service's notifications).
///
/// ```swift
/// let result = await trigger.run()
/// print(result.json.serialized())   // {"kind":"summary","outcome":"clean",…}
/// ```
public struct TriggerResult: Sendable {
    public enum Outcome: String, Sendable {
        case clean
        case violated
        case inconclusive
    }

    /// One broken rule: the requirement, what was seen and the requirement's level.
    public struct Violation: Sendable, Equatable {
        public var requirement: String
        public var message: String
        public var level: RequirementLevel

        /// A broken rule; a MUST unless `level` says otherwise.
        public init(requirement: String, message: String, level: RequirementLevel = .must) {
            self.requirement = requirement
            self.message = message
            self.level = level
        }
    }

    public var outcome: Outcome
    /// One sentence for the summary.
    public var detail: String
    /// What names the exchange, as summary members after `detail` (dialstack: `eventId`, `callId`).
    public var facts: [(key: String, value: JSONValue)]
    /// The text summary's line for `facts` (`Event evt_…, call call_…`).
    public var factsLine: String
    /// The statuses of the requests that carried the exchange, in order (nil: no answer).
    public var answers: [Int?]
    /// Pushes (or provider requests) of the exchange the mocks received.
    public var pushes: Int
    /// The MUST rules broken.
    public var violations: [Violation]
    /// The SHOULD rules not met: warnings, which leave the outcome as it is.
    public var warnings: [Violation]

    /// Creates a value from its parts; `violations` are every rule broken, split by level into `violations` (MUST)
    /// and `warnings` (SHOULD).
    public init(
        outcome: Outcome, detail: String, facts: [(key: String, value: JSONValue)], factsLine: String,
        answers: [Int?], pushes: Int, violations: [Violation]
    ) {
        self.outcome = outcome
        self.detail = detail
        self.facts = facts
        self.factsLine = factsLine
        self.answers = answers
        self.pushes = pushes
        self.violations = violations.filter { $0.level == .must }
        self.warnings = violations.filter { $0.level == .should }
    }

    /// `{"kind": "summary", "outcome": …, "detail": …, …facts, "answers", "pushes", "violations", "warnings"}`,
    /// each violation and warning `{"requirement", "message"}`.
    public var json: JSONValue {
        func list(_ vs: [Violation]) -> JSONValue {
            .array(vs.map { .object([("requirement", .string($0.requirement)), ("message", .string($0.message))]) })
        }
        return .object(
            [("kind", "summary"), ("outcome", .string(outcome.rawValue)), ("detail", .string(detail))] + facts + [
                ("answers", .array(answers.map { $0.map { .int($0) } ?? .null })), ("pushes", .int(pushes)),
                ("violations", list(violations)), ("warnings", list(warnings)),
            ])
    }

    /// The text summary after the timeline: outcome, facts, answers and pushes, one line per violation, then one
    /// per warning.
    public func textLines(exitStatus: Int32) -> [String] {
        var lines = ["", "Outcome: \(outcome.rawValue) — \(detail) (exit \(exitStatus))"]
        if !factsLine.isEmpty { lines.append(factsLine) }
        lines.append(
            "Answers: \(answers.map { $0.map(String.init) ?? "none" }.joined(separator: ", ")); pushes: \(pushes)")
        for v in violations { lines.append("Violation \(v.requirement): \(v.message)") }
        for w in warnings { lines.append("Warning \(w.requirement) (SHOULD): \(w.message)") }
        return lines
    }
}
