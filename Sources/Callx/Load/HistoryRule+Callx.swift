import Conformance

extension HistoryRule {
    // MARK: The rules `HistoryChecker` applies to a Callx load run

    /// Exactly one winner per answered call.
    public static let oneWinner = HistoryRule("one-winner")
    /// A retry with the same operationId and body returns the original outcome.
    public static let retryOutcome = HistoryRule("retry-outcome")
    /// Revisions strictly increase per call in each feed.
    public static let revisionOrder = HistoryRule("revision-order")
    /// Every event is delivered once per feed.
    public static let eventOnce = HistoryRule("event-once")
    /// An event the run's operations caused is in the feed, or the feed said it lost events.
    public static let eventDelivered = HistoryRule("event-delivered")
    /// At most one invitation per device and call (a repeat with the same eventId is the same message).
    public static let oneInvitation = HistoryRule("one-invitation")
    /// No invitation whose send began after the call stopped ringing.
    public static let invitationAfterEnd = HistoryRule("invitation-after-end")

    /// Callx's rules, in the order the report lists their violations.
    public static let callx: [HistoryRule] = [
        .oneWinner, .retryOutcome, .revisionOrder, .eventOnce, .eventDelivered, .oneInvitation, .invitationAfterEnd,
    ]
}
