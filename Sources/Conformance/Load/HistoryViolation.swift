import Reports

/// The name of one rule of a profile's whole-run history check (`one-winner`, `wake-once`): a profile
/// declares its rules as constants and charges each to a requirement of its catalogue. It is encoded as
/// its name, so `load-report.json`'s `rule` is a plain string.
///
/// ```swift
/// extension HistoryRule {
///     static let onePong = HistoryRule("one-pong")
/// }
/// let v = HistoryViolation(rule: .onePong, requirementID: "PING-1", level: .must, callId: "p1", message: "two pongs")
/// ```
public struct HistoryRule: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String

    /// The rule named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The rule named `name`.
    public init(_ name: String) { self.rawValue = name }

    public var description: String { rawValue }
}

/// One rule of the whole-run history check that a load run broke, naming the unit of work it concerns
/// (Callx: the call; DialStack: the webhook's call, with its event in the message).
public struct HistoryViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    public var rule: HistoryRule
    /// The requirement the rule evidences (`CALLX-ARB-1`).
    public var requirementID: String
    public var level: RequirementLevel
    /// The call the violation concerns.
    public var callId: String
    /// What happened, with the evidence (operations, installations, eventIds, times).
    public var message: String

    /// Creates a value from its parts.
    public init(rule: HistoryRule, requirementID: String, level: RequirementLevel, callId: String, message: String) {
        self.rule = rule
        self.requirementID = requirementID
        self.level = level
        self.callId = callId
        self.message = message
    }

    /// `CALLX-ARB-1 MUST one-winner call 1b2…: two answers won: …`.
    public var description: String {
        "\(requirementID) \(level.rawValue) \(rule.rawValue) call \(callId): \(message)"
    }
}

extension Array where Element == HistoryViolation {
    /// The violations grouped by rule in the order of `rules` (a profile's list), each group in found order.
    ///
    /// ```swift
    /// findings.history = findings.history.ordered(by: HistoryRule.callx)
    /// ```
    public func ordered(by rules: [HistoryRule]) -> [HistoryViolation] {
        let order = Dictionary(rules.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: Swift.min)
        return enumerated().sorted {
            (order[$0.element.rule] ?? 0, $0.offset) < (order[$1.element.rule] ?? 0, $1.offset)
        }.map(\.element)
    }
}
