import Conformance
import JSON
import PushMocks

/// A captured APNs or FCM request read as a DialStack wake-up push: the call fields it carries (the APNs payload,
/// the FCM data the app receives as sent, whatever the value types) and the transport settings the seed fixes.
struct DialStackPush: Sendable {
    enum Platform: Sendable { case apns, fcm }

    let platform: Platform
    /// The APNs payload, or the FCM data the Android app receives (`FCMAppData`: `android.data` when set, else
    /// `message.data`), as received (`.null` when absent or unreadable).
    let fields: JSONValue
    /// Where `fields` was read, as findings name it: `body`, `body.message.data` or `body.message.android.data`.
    let fieldsPath: String
    /// Where the push carries the call: FCM `data`; in an APNs payload, whose shape "depends on the OS call
    /// library in your app" (the seed), the payload itself when it has a string `call_id` at the top, else the
    /// first object found nested, breadth first, with a string `call_id` or `callId` (`{"call": {"call_id": …}}`);
    /// the payload itself when none has. Found once: the invariants and the timeline read it often.
    let callObject: JSONValue
    /// The call ID the push names (a string under `callIdKeys` in `callObject`). Whether it carries a given
    /// webhook's call ID under any other key is `carries(_:)`.
    var callId: String? { Self.callIdKeys.lazy.compactMap { callObject[$0]?.stringValue }.first }

    /// Whether the payload holds `callId` as a string value anywhere, under any key, at any depth: the seed asks for
    /// the webhook's call_id "whatever the shape" the app's call library reads (flutter_callkit_incoming's
    /// `{"id": …, "nameCaller": …}`), so the value ties the push to its call, not the key.
    func carries(_ callId: String) -> Bool { strings.contains(callId) }

    /// Every string value of `fields`, under any key at any depth (32 levels bound a hostile payload's recursion):
    /// what `carries` and `tie(isKnown:)` look a call ID up in. Found once: a push is tied to its call often.
    let strings: Set<String>

    static func collectStrings(_ value: JSONValue, into out: inout Set<String>, depth: Int) {
        switch value {
        case .string(let s): out.insert(s)
        case .object(let members) where depth < 32:
            for m in members { collectStrings(m.value, into: &out, depth: depth + 1) }
        case .array(let items) where depth < 32:
            for item in items { collectStrings(item, into: &out, depth: depth + 1) }
        default: break
        }
    }

    /// The names an app's call library might give the call ID in a nested object.
    static let callIdKeys = ["call_id", "callId"]

    /// The first object under `json` (not `json` itself) with a string under one of `callIdKeys`, breadth first.
    static func nestedCallObject(in json: JSONValue) -> JSONValue? {
        var level = [json]
        var top = true
        while !level.isEmpty {
            var next: [JSONValue] = []
            for value in level {
                switch value {
                case .object(let members):
                    if !top, members.contains(where: { callIdKeys.contains($0.key) && $0.value.stringValue != nil }) {
                        return value
                    }
                    next += members.map(\.value)
                case .array(let items):
                    next += items
                default:
                    break
                }
            }
            level = next
            top = false
        }
        return nil
    }

    /// FCM `data.type`; nil for APNs, whose payload has none.
    var type: String? { platform == .fcm ? fields["type"]?.stringValue : nil }

    /// nil for a capture that is no push (OAuth, a webhook).
    init?(_ capture: Capture) {
        switch capture.mock {
        case .apns:
            platform = .apns
            fields = capture.json ?? .null
            fieldsPath = "body"
        case .fcm:
            platform = .fcm
            let data = FCMAppData(body: capture.json)
            fields = data.value
            fieldsPath = "body." + data.path
        default:
            return nil
        }
        var strings: Set<String> = []
        Self.collectStrings(fields, into: &strings, depth: 0)
        self.strings = strings
        callObject =
            platform == .apns && fields["call_id"]?.stringValue == nil
            ? Self.nestedCallObject(in: fields) ?? fields : fields
    }

    /// The push as the profile shows it in match documents (`dialstack.call_id`, …) and on the timeline.
    var view: PushView {
        let name = platform == .apns ? "VoIP wake-up" : "FCM wake-up"
        return PushView(
            key: "dialstack", document: fields, type: type, callId: callId, carried: strings,
            summary: "\(name) \(callId.map { "for \($0)" } ?? "naming no call under call_id")")
    }
}
