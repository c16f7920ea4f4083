import Reports

/// One rule of the whole-run history check that a load run broke, naming the call it concerns.
public struct HistoryViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The rules `HistoryChecker` applies.
    public enum Rule: String, Sendable, Equatable, Codable, CaseIterable {
        /// Exactly one winner per answered call.
        case oneWinner = "one-winner"
        /// A retry with the same operationId and body returns the original outcome.
        case retryOutcome = "retry-outcome"
        /// Revisions strictly increase per call in each feed.
        case revisionOrder = "revision-order"
        /// Every event is delivered once per feed.
        case eventOnce = "event-once"
        /// An event the run's operations caused is in the feed, or the feed said it lost events.
        case eventDelivered = "event-delivered"
        /// At most one invitation per device and call (a repeat with the same eventId is the same message).
        case oneInvitation = "one-invitation"
        /// No invitation whose send began after the call stopped ringing.
        case invitationAfterEnd = "invitation-after-end"
    }

    public var rule: Rule
    /// The requirement the rule evidences (`CALLX-ARB-1`).
    public var requirementID: String
    public var level: RequirementLevel
    public var callId: String
    /// What happened, with the evidence (operations, installations, eventIds, times).
    public var message: String

    /// Creates a value from its parts.
    public init(rule: Rule, requirementID: String, level: RequirementLevel, callId: String, message: String) {
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
