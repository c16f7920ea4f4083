import JSON

/// The data an Android app receives from an FCM HTTP v1 message, and where in the message it was read: the
/// one place every FCM payload rule (Callx, DialStack, push-service) and the mock's `FCMMessageInfo.data` read it.
///
/// FCM v1's `AndroidConfig.data`: "Arbitrary key/value payload. If present, it will override
/// google.firebase.fcm.v1.Message.data" (firebase-admin: "When provided, overrides any data fields set on the
/// top-level Message"); no text says it merges per key, so `android.data`, when present, is the whole of what the
/// app gets, and `message.data` only otherwise. An empty or `null` `android.data` is absent: a protobuf map
/// field has no presence beyond its entries, so FCM cannot tell `{}` from no field.
///
/// ```swift
/// let data = FCMAppData(message: capture.json?["message"])
/// let callId = data.value["call_id"]?.stringValue  // found at data.path + ".call_id"
/// ```
public struct FCMAppData: Sendable, Equatable {
    /// `message.android.data` or `message.data`: where `value` was read.
    public let path: String
    /// The data as sent, whatever its value types; `.null` when the message has none.
    public let value: JSONValue

    /// The app's data of an FCM v1 `message` object (the request body's `message`).
    public init(message: JSONValue?) {
        if let android = message?["android"]?["data"], Self.isPresent(android) {
            path = "message.android.data"
            value = android
        } else {
            path = "message.data"
            value = message?["data"] ?? .null
        }
    }

    /// The app's data of an FCM v1 send request body (`{"message": {…}}`).
    public init(body: JSONValue?) { self.init(message: body?["message"]) }

    /// Whether a map field counts as set: anything but `null` and an empty object.
    static func isPresent(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .object(let members): return !members.isEmpty
        default: return true
        }
    }
}
