import JSON
import PushMocks

/// A captured APNs or FCM request read as a push-service push: its payload values (APNs top-level members besides
/// `aps`, FCM `message.data`, as sent whatever their types), the seed's `type` and `call_id`.
struct PushServicePush: Sendable {
    enum Platform: Sendable { case apns, fcm }

    var platform: Platform
    /// The APNs payload without `aps`, or FCM `message.data` (`.null` when absent or unreadable).
    var fields: JSONValue
    /// `incoming_call`, `call_ended`, or nil for a normal notification.
    var type: String? { fields["type"]?.stringValue }
    var callId: String? { fields["call_id"]?.stringValue }
    var isCall: Bool { type == PushServiceNotification.incomingType || type == PushServiceNotification.endedType }

    /// nil for a capture that is no push (OAuth).
    init?(_ capture: Capture) {
        switch capture.mock {
        case .apns:
            platform = .apns
            if case .object(let members)? = capture.json {
                fields = .object(members.filter { $0.key != "aps" })
            } else {
                fields = .null
            }
        case .fcm:
            platform = .fcm
            fields = capture.json?.value(atPath: "message.data") ?? .null
        default:
            return nil
        }
    }

    /// The push as the profile shows it in match documents (`pushService.type`, …) and on the timeline.
    var view: PushView {
        let what = type ?? "notification"
        return PushView(
            key: "pushService", document: fields, type: type, callId: callId,
            summary: "\(platform == .apns ? "APNs" : "FCM") \(what)\(callId.map { " for \($0)" } ?? "")")
    }
}
