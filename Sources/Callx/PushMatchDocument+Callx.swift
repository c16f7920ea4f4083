import Conformance
import JSON
import PushMocks

extension PushMatchDocument {
    /// The `callx` object: APNs `callx`, or FCM `data.callx` parsed from its string.
    static func callx(_ c: Capture) -> JSONValue? {
        if c.mock == .apns { return c.json?["callx"] }
        if c.mock == .fcm, let text = c.fcm?.data["callx"] ?? c.json?.value(atPath: "message.data.callx")?.stringValue {
            return try? JSONValue.parse(text)
        }
        return nil
    }
}
