import Conformance
import JSON
import PushMocks

/// A captured APNs or FCM request read as a push-service push: its payload values (APNs top-level members besides
/// `aps`, the FCM data the app receives, as sent whatever their types), the seed's `type` and `call_id`.
struct PushServicePush: Sendable {
    enum Platform: Sendable { case apns, fcm }

    var platform: Platform
    /// The APNs payload without `aps`, or the FCM data the Android app receives (`FCMAppData`: `android.data` when
    /// set, else `message.data`) (`.null` when absent or unreadable).
    var fields: JSONValue
    /// Where `fields` was read, as findings name it: `body`, `body.message.data` or `body.message.android.data`.
    var fieldsPath = "body"
    /// `incoming_call`, `call_ended`, or nil for a normal notification.
    var type: String? { fields["type"]?.stringValue }
    var callId: String? { fields["call_id"]?.stringValue }
    var isCall: Bool { type == PushServiceNotification.incomingType || type == PushServiceNotification.endedType }
    /// ringcheck's marker wherever the service put it: the first `ringcheck_ref` member at any depth of the payload,
    /// also inside a JSON text (OneSignal nests a notification's data under `custom`). For the tools that made every
    /// request themselves with unique markers (load, check-payload); a run's scenarios tie a push to its request
    /// through `PushServiceAttribution`.
    var marker: String? { Self.member(PushServiceNotification.markerKey, in: fields, depth: 0) }

    private static func member(_ key: String, in value: JSONValue, depth: Int) -> String? {
        guard depth < 16 else { return nil }
        switch value {
        case .object(let members):
            if let found = members.first(where: { $0.key == key })?.value.stringValue { return found }
            return members.lazy.compactMap { member(key, in: $0.value, depth: depth + 1) }.first
        case .array(let items):
            return items.lazy.compactMap { member(key, in: $0, depth: depth + 1) }.first
        case .string(let text) where text.count <= 1 << 16 && text.contains(key):
            return (try? JSONValue.parse(text)).flatMap { member(key, in: $0, depth: depth + 1) }
        default:
            return nil
        }
    }

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
            let data = FCMAppData(body: capture.json)
            fields = data.value
            fieldsPath = "body." + data.path
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
