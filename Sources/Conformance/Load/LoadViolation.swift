import Reports

/// One requirement a load run broke, as `load-report.json` lists it: the engine's requirement (the same
/// `RequirementID` a scenario run's `Violation` and `Rule` charge), the level it is charged at, the unit of work
/// it concerns (Callx: the call; DialStack: the webhook's call; push-service: the call or notification;
/// OneSignal: the operation's marker) and the judge's message, kept as the judge wrote it.
///
/// A whole-run history rule names its `rule` (listed under `historyViolations`); a finding of the profile's
/// per-push rules is the engine's `Violation` charged with `init(_:level:callId:message:)` and has none (listed
/// under `invariantViolations`). Encoded with the keys `rule`, `requirementID`, `level`, `callId`, `message`,
/// leaving out `rule` and `callId` when absent.
///
/// ```swift
/// let late = LoadViolation("PING-2", level: .must, rule: .onePong, callId: "p1", message: "two pongs")
/// let pushRule = LoadViolation(violation, level: levels[violation.requirement.rawValue] ?? .must,
///                              callId: "p1", message: "push #\(violation.sequence ?? 0) \(violation.message)")
/// ```
public struct LoadViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The history rule that found it; nil for a finding of the profile's per-push rules.
    public var rule: HistoryRule?
    /// The requirement it is charged to (`CALLX-ARB-1`).
    public var requirement: RequirementID
    public var level: RequirementLevel
    /// The unit of work it concerns (the call), when known.
    public var callId: String?
    /// What happened, with the evidence (operations, installations, pushes, eventIds, times).
    public var message: String

    /// A violation of `requirement` at `level`, found by history rule `rule` (if any) for unit `callId`.
    public init(
        _ requirement: RequirementID, level: RequirementLevel, rule: HistoryRule? = nil, callId: String?,
        message: String
    ) {
        self.rule = rule
        self.requirement = requirement
        self.level = level
        self.callId = callId
        self.message = message
    }

    /// The engine's `violation` charged in a load run: its requirement at `level` (the catalogue's, or what the
    /// check outside a run set), for unit `callId`, with the judge's `message`.
    public init(_ violation: Violation, level: RequirementLevel, callId: String?, message: String) {
        self.init(violation.requirement, level: level, callId: callId, message: message)
    }

    /// The one way a load judge charges `requirement`: at the level the profile's catalogue (`levels`, by ID)
    /// gives it, or `otherwise` when the catalogue does not list it.
    ///
    /// ```swift
    /// out.append(.charge(PingRequirement.onePong, levels: levels, rule: .onePong, callId: "p1", message: "two pongs"))
    /// ```
    public static func charge(
        _ requirement: RequirementID, levels: [String: RequirementLevel], otherwise: RequirementLevel = .must,
        rule: HistoryRule? = nil, callId: String?, message: String
    ) -> LoadViolation {
        LoadViolation(
            requirement, level: levels[requirement.rawValue] ?? otherwise, rule: rule, callId: callId, message: message)
    }

    /// The engine's `violation` (a finding of one of the profile's `Rule`s) charged as `charge(_:levels:…)` does:
    /// its requirement at the catalogue's level.
    public static func charge(
        _ violation: Violation, levels: [String: RequirementLevel], otherwise: RequirementLevel = .must,
        callId: String?, message: String
    ) -> LoadViolation {
        charge(violation.requirement, levels: levels, otherwise: otherwise, callId: callId, message: message)
    }

    /// `CALLX-ARB-1 MUST one-winner call 1b2…: two answers won: …`.
    public var description: String {
        "\(requirement) \(level.rawValue) " + (rule.map { "\($0) " } ?? "") + unitMessage
    }

    /// `call 1b2…: two answers won: …`, or the message alone when no unit is known.
    public var unitMessage: String { (callId.map { "call \($0): " } ?? "") + message }

    enum CodingKeys: String, CodingKey {
        case rule, requirementID, level, callId, message
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            RequirementID(try c.decode(String.self, forKey: .requirementID)),
            level: try c.decode(RequirementLevel.self, forKey: .level),
            rule: try c.decodeIfPresent(HistoryRule.self, forKey: .rule),
            callId: try c.decodeIfPresent(String.self, forKey: .callId),
            message: try c.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(rule, forKey: .rule)
        try c.encode(requirement.rawValue, forKey: .requirementID)
        try c.encode(level, forKey: .level)
        try c.encodeIfPresent(callId, forKey: .callId)
        try c.encode(message, forKey: .message)
    }
}

extension Array where Element == LoadViolation {
    /// The violations grouped by history rule in the order of `rules` (a profile's list), each group in found order.
    ///
    /// ```swift
    /// findings.history = findings.history.ordered(by: HistoryRule.callx)
    /// ```
    public func ordered(by rules: [HistoryRule]) -> [LoadViolation] {
        let order = Dictionary(rules.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: Swift.min)
        let rank: (LoadViolation) -> Int = { $0.rule.flatMap { order[$0] } ?? 0 }
        return enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
