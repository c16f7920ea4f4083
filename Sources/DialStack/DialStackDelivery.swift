import Conformance

/// One webhook ringcheck delivered in a scenario run, as the invariants and the latency need it.
struct DialStackDelivery: Sendable, Equatable {
    /// The event's top-level `id` (a redelivery repeats it).
    var eventId: String
    var type: String
    /// `data.call_id`, when the event has one.
    var callId: String?
    /// The scenario user the event is addressed to (`data.user_id` maps to it); nil without a `data.user_id`.
    var user: String?
    /// `data` as sent, for comparing the pushes' caller fields.
    var data: [String: String]
    /// Wall-clock milliseconds just before the request left.
    var sentAtMs: Int64
    /// Whether it was signed correctly (the receiver must act on it) or in a way it must refuse.
    var signedValidly: Bool
    /// The receiver's status; nil when it did not answer.
    var status: Int?
    /// The body's JSON formatting (`DialStackBodyFormat`), as `expectWakeUps` names it.
    var format: String = DialStackBodyFormat.compact.rawValue
}

/// What the DialStack profile keeps of one scenario run (`DialStackProfile.RunState`).
public struct DialStackRunState: ProfileRunState {
    public init() {}

    var deliveries: [DialStackDelivery] = []
    /// The capture log's last sequence when the scenario's first device registration began: the DialStack API
    /// calls recorded after it, for the scenario's users, are the ones its registrations caused (by order, not time).
    var apiCallsAfter: Int?

    /// The scenario user a known event is addressed to, by event ID (a redelivery keeps its first delivery's).
    func user(ofEvent id: String) -> String? { deliveries.first { $0.eventId == id }?.user }
}

extension RunContext {
    /// The DialStack profile's state of this run.
    var dialStack: DialStackRunState {
        get { profileStates[DialStackProfile.self] }
        _modify { yield &profileStates[DialStackProfile.self] }
    }
}
