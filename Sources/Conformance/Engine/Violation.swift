import PushMocks
import Reports

/// One broken rule, as every profile's pure checks report it: the requirement it is charged to, where, what the
/// rule wants against what was seen, and the captures (and events) that show it. The engine turns violations into
/// `CheckFailure`s in one place (`ScenarioRun.failures(for:on:evidence:)`).
///
/// ```swift
/// let found = [Violation(ProbeRequirement.accepted, "status", expected: "accepted", actual: "410", capture: 7)]
/// return run.failures(for: found, on: "every probe push") { run.pushEvidence($0, device: "b-phone") }
/// ```
public struct Violation: Sendable, Equatable {
    public var requirement: RequirementID
    /// Where in the push, request or event the problem is (`headers.apns-expiration`, `body.app_id`); empty when
    /// the finding concerns the whole push.
    public var field: String
    /// What the rule wants, in words.
    public var expected: String
    /// What was seen.
    public var actual: String
    /// Sequence numbers of the captures involved (the capture log's numbering), the offending one first.
    public var captures: [Int]
    /// Indexes of the events involved (into the events the checker was given).
    public var events: [Int]
    /// The level a check outside a scenario run reports it at (`check-payload`, load mode: the catalogue's, or
    /// SHOULD for a finding that rests on a heuristic of ours); nil when the run's catalogue decides. A scenario
    /// run always charges the catalogue's level.
    public var level: RequirementLevel?

    public init(
        _ requirement: RequirementID, _ field: String, expected: String, actual: String, captures: [Int] = [],
        events: [Int] = [], level: RequirementLevel? = nil
    ) {
        self.requirement = requirement
        self.field = field
        self.expected = expected
        self.actual = actual
        self.captures = captures
        self.events = events
        self.level = level
    }

    public init(
        _ requirement: RequirementID, _ field: String, expected: String, actual: String, capture: Int?
    ) {
        self.init(requirement, field, expected: expected, actual: actual, captures: capture.map { [$0] } ?? [])
    }

    /// The offending capture's sequence number, if the violation names one.
    public var sequence: Int? { captures.first }
}

extension Violation: CustomStringConvertible {
    /// `headers.apns-expiration: expected "0", got "1790000030"`.
    public var message: String {
        var line = field.isEmpty ? "" : "\(field): "
        line += "expected \(expected), got \(actual)"
        return line
    }

    /// `CALLX-APNS-5 MUST headers.apns-expiration: expected "0", got "1790000030" [capture #3]`.
    public var description: String {
        var line = "\(requirement) \(level.map { "\($0.rawValue) " } ?? "")\(message)"
        var evidence: [String] = []
        if !captures.isEmpty { evidence.append("capture " + captures.map { "#\($0)" }.joined(separator: ", ")) }
        if !events.isEmpty { evidence.append("event " + events.map { "#\($0)" }.joined(separator: ", ")) }
        if !evidence.isEmpty { line += " [" + evidence.joined(separator: "; ") + "]" }
        return line
    }
}

extension Array where Element == Violation {
    /// True when any violation is of a MUST (at the level a check outside a run reports).
    public var violatesMust: Bool { contains { $0.level == .must } }
}

extension RunContext {
    /// The failures of `violations`, each charged to its requirement at the catalogue's level and noted on the
    /// timeline (`FAILED <id>: <field> <actual>` unless `note` says otherwise): the check reads
    /// `invariant <field> on <scope>`, the evidence is what `evidence` gives for the violation.
    package func failures(
        for violations: [Violation], on scope: String, note: ((Violation) -> String)? = nil,
        evidence: (Violation) -> [EvidenceItem]
    ) -> [CheckFailure] {
        violations.map { v in
            failure(
                v.requirement, check: "invariant\(v.field.isEmpty ? "" : " \(v.field)") on \(scope)",
                expected: v.expected, actual: v.actual, evidence: evidence(v),
                note: note?(v) ?? "\(v.field) \(v.actual)", noteActor: "invariants")
        }
    }

    /// A captured push as evidence: `push #3 to b-phone` and its JSON, secrets redacted.
    package func pushEvidence(_ capture: Capture, to device: String) -> EvidenceItem {
        EvidenceItem(
            kind: .push, title: "push #\(capture.sequence) to \(device)",
            text: capture.json(revealSecrets: false).serialized(pretty: true))
    }
}
