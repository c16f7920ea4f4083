/// One rule a captured push or an observed event broke, charged to a catalogue requirement.
public struct InvariantViolation: Sendable, Equatable, CustomStringConvertible {
    /// The requirement the rule belongs to, e.g. `CALLX-APNS-5`.
    public var requirementID: String
    /// The requirement's level in the catalogue; `.should` for findings that rest on a heuristic of ours.
    public var level: RequirementLevel
    /// Where in the push or event the problem is, e.g. `headers.apns-expiration` or
    /// `message.data.callx→revision`; empty when the finding concerns the whole push.
    public var path: String
    /// What the rule wants, in words.
    public var expected: String
    /// What was seen.
    public var actual: String
    /// Sequence numbers of the captures involved (the capture log's numbering), first the offending one.
    public var captures: [Int]
    /// Indexes (into the `events` passed to the checker) of the events involved.
    public var events: [Int]

    /// Creates a value from its parts.
    public init(
        requirementID: String, level: RequirementLevel, path: String, expected: String, actual: String,
        captures: [Int] = [], events: [Int] = []
    ) {
        self.requirementID = requirementID
        self.level = level
        self.path = path
        self.expected = expected
        self.actual = actual
        self.captures = captures
        self.events = events
    }

    /// One line: requirement, level, path, expected against actual, evidence.
    public var message: String {
        var line = path.isEmpty ? "" : "\(path): "
        line += "expected \(expected), got \(actual)"
        return line
    }

    /// `CALLX-APNS-5 MUST headers.apns-expiration: expected "0", got "1790000030" [capture #3]`.
    public var description: String {
        var line = "\(requirementID) \(level.rawValue) \(message)"
        var evidence: [String] = []
        if !captures.isEmpty { evidence.append("capture " + captures.map { "#\($0)" }.joined(separator: ", ")) }
        if !events.isEmpty { evidence.append("event " + events.map { "#\($0)" }.joined(separator: ", ")) }
        if !evidence.isEmpty { line += " [" + evidence.joined(separator: "; ") + "]" }
        return line
    }
}

extension Array where Element == InvariantViolation {
    /// True when any violation is of a MUST.
    public var violatesMust: Bool { contains { $0.level == .must } }
}
