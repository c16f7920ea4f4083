import JSON

/// How one `ringcheck trigger dialstack` exchange went: clean, a violation of the profile's rules (each named by
/// its requirement), or not judgeable (the backend could not be reached, or no push reached the mocks).
public struct DialStackTriggerResult: Sendable {
    public enum Outcome: String, Sendable {
        case clean
        case violated
        case inconclusive
    }

    /// One broken rule: the requirement and what was seen.
    public struct Violation: Sendable, Equatable {
        public var requirement: String
        public var message: String
    }

    public var outcome: Outcome
    /// One sentence for the summary.
    public var detail: String
    public var eventId: String
    public var callId: String
    /// The statuses of the deliveries, in order (nil: no answer).
    public var answers: [Int?]
    /// Pushes for the event (or to the virtual devices) the mocks received.
    public var pushes: Int
    public var violations: [Violation]

    /// `{"kind": "summary", "outcome": …, "detail": …, "eventId", "callId", "answers", "pushes", "violations"}`.
    public var json: JSONValue {
        .object([
            ("kind", "summary"), ("outcome", .string(outcome.rawValue)), ("detail", .string(detail)),
            ("eventId", .string(eventId)), ("callId", .string(callId)),
            ("answers", .array(answers.map { $0.map { .int($0) } ?? .null })), ("pushes", .int(pushes)),
            (
                "violations",
                .array(
                    violations.map {
                        .object([("requirement", .string($0.requirement)), ("message", .string($0.message))])
                    })
            ),
        ])
    }
}
