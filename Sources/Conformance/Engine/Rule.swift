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

    /// What the rule finds in `subject`, as violations of its requirement showing `captures`.
    public func violations(of subject: Subject, captures: [Int] = []) -> [Violation] {
        var found = RuleFindings()
        check(subject, &found)
        return found.items.map {
            Violation(requirement, $0.field, expected: $0.expected, actual: $0.actual, captures: captures)
        }
    }
}

/// What one rule found in one subject: the field, what the rule wants and what was seen, per finding.
public struct RuleFindings: Sendable {
    public private(set) var items: [(field: String, expected: String, actual: String)] = []

    /// Notes one finding.
    public mutating func add(_ field: String, expected: String, actual: String) {
        items.append((field, expected, actual))
    }
}

extension Array {
    /// The violations every rule of this list finds in `subject`, in the list's order.
    public func violations<Subject>(of subject: Subject, captures: [Int] = []) -> [Violation]
    where Element == Rule<Subject> {
        flatMap { $0.violations(of: subject, captures: captures) }
    }
}
