import Reports

/// One rule of a profile, named by the one requirement it evidences: a pure check of one subject (a captured
/// request, a push, an operation) that notes what it finds. A profile composes its rules into lists, one per kind
/// of subject, and checks each subject against every rule in order — as swift-certificates' `RFC5280Policy` is built
/// from one small policy per rule. A rule charges only its own requirement.
///
/// ```swift
/// static let accepted = Rule<Capture>(ProbeRequirement.accepted) { capture, found in
///     if !capture.outcome.isAccepted { found.add("status", expected: "accepted", actual: "refused") }
/// }
/// let violations = [accepted].violations(of: capture, captures: [capture.sequence])
/// ```
public struct Rule<Subject>: Sendable {
    /// The requirement every finding of this rule is charged to.
    public let requirement: RequirementID
    private let check: @Sendable (Subject, inout RuleFindings) -> Void

    public init(_ requirement: RequirementID, _ check: @escaping @Sendable (Subject, inout RuleFindings) -> Void) {
        self.requirement = requirement
        self.check = check
    }

    /// What the rule finds in `subject`, as violations of its requirement showing `captures` and `events` (and
    /// whatever more a finding names).
    public func violations(of subject: Subject, captures: [Int] = [], events: [Int] = []) -> [Violation] {
        var found = RuleFindings()
        check(subject, &found)
        return found.items.map {
            Violation(
                requirement, $0.field, expected: $0.expected, actual: $0.actual, captures: captures + $0.captures,
                events: events + $0.events, level: $0.level)
        }
    }

    /// This rule applied to the part of a larger subject that `part` picks out, and to nothing when it picks none:
    /// how a profile reuses the rules of an embedded value (an invitation inside a push) in the larger one's list.
    ///
    /// ```swift
    /// let pushRules = invitationRules.map { $0.on { (push: Push) in push.invitation } }
    /// ```
    public func on<Outer>(_ part: @escaping @Sendable (Outer) -> Subject?) -> Rule<Outer> {
        Rule<Outer>(requirement) { outer, found in
            if let subject = part(outer) { check(subject, &found) }
        }
    }
}

/// What one rule found in one subject: the field, what the rule wants and what was seen, per finding.
public struct RuleFindings: Sendable {
    /// One finding: where, wanted against seen, the level a check outside a run reports it at when it is not the
    /// catalogue's, and the captures and events beyond the subject's own that show it (an earlier push it repeats).
    public struct Finding: Sendable {
        public var field: String
        public var expected: String
        public var actual: String
        public var level: RequirementLevel?
        public var captures: [Int]
        public var events: [Int]
    }

    public private(set) var items: [Finding] = []

    /// Notes one finding; `level` only for a finding that rests on a heuristic (at most SHOULD whatever the
    /// catalogue says), `captures`/`events` for evidence beyond the subject's own.
    public mutating func add(
        _ field: String, expected: String, actual: String, level: RequirementLevel? = nil, captures: [Int] = [],
        events: [Int] = []
    ) {
        items.append(
            Finding(field: field, expected: expected, actual: actual, level: level, captures: captures, events: events))
    }
}

extension Array {
    /// The violations every rule of this list finds in `subject`, in the list's order.
    public func violations<Subject>(of subject: Subject, captures: [Int] = [], events: [Int] = []) -> [Violation]
    where Element == Rule<Subject> {
        flatMap { $0.violations(of: subject, captures: captures, events: events) }
    }
}
