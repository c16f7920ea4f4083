import JSON
import PushMocks

/// A captured APNs or FCM request read as a DialStack wake-up push: the call fields it carries (the APNs payload,
/// FCM `message.data` as sent, whatever the value types) and the transport settings the seed fixes.
struct DialStackPush: Sendable {
    enum Platform: Sendable { case apns, fcm }

    var platform: Platform
    /// The APNs payload or FCM `message.data` as received (`.null` when absent or unreadable).
    var fields: JSONValue
    /// `call_id` when it is a string.
    var callId: String? { fields["call_id"]?.stringValue }
    /// FCM `data.type`; nil for APNs, whose payload has none.
    var type: String? { platform == .fcm ? fields["type"]?.stringValue : nil }

    /// nil for a capture that is no push (OAuth, a webhook).
    init?(_ capture: Capture) {
        switch capture.mock {
        case .apns:
            platform = .apns
            fields = capture.json ?? .null
        case .fcm:
            platform = .fcm
            fields = capture.json?.value(atPath: "message.data") ?? .null
        default:
            return nil
        }
    }

    /// The push as the profile shows it in match documents (`dialstack.call_id`, …) and on the timeline.
    var view: PushView {
        let name = platform == .apns ? "VoIP wake-up" : "FCM wake-up"
        return PushView(
            key: "dialstack", document: fields, type: type, callId: callId,
            summary: "\(name) \(callId.map { "for \($0)" } ?? "without call_id")")
    }
}
