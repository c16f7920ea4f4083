import JSON

/// A verified DialStack webhook event, as the backend reads it: `{"id", "type", "data": {...}}`.
public struct DialStackWebhookEvent: Sendable, Equatable {
    /// The event type that asks for a wake-up push.
    public static let wakeUpType = "call.mobile_push_wakeup"
    /// Event types about the same call that must not wake anyone (the seed explains why).
    public static let otherCallTypes: Set<String> = ["call.incoming", "call.ringing"]

    /// The event's ID (the same on every delivery of it); nil when absent.
    public var id: String?
    public var type: String?
    /// `data.user_id`: whose devices to wake.
    public var userId: String?
    /// `data`, as received: the push payloads copy its call fields.
    public var data: JSONValue

    /// Reads the members the backend needs; nil when `json` is not an object.
    public init?(json: JSONValue) {
        guard case .object = json else { return nil }
        id = json["id"]?.stringValue
        type = json["type"]?.stringValue
        data = json["data"] ?? .null
        userId = data["user_id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `data.call_id` as text, for the log.
    public var callId: String? { data["call_id"]?.stringValue }
}
