import Conformance
import JSON
import PushMocks

extension PushMatchDocument {
    /// The `callx` object: APNs `callx`, or FCM `data.callx` parsed from its string.
    static func callx(_ c: Capture) -> JSONValue? {
        if c.mock == .apns { return c.json?["callx"] }
        // The data the app receives (`FCMAppData`), also for a request the mock refused (no `fcm` info).
        if c.mock == .fcm, let text = c.fcm?.data["callx"] ?? FCMAppData(body: c.json).value["callx"]?.stringValue {
            return try? JSONValue.parse(text)
        }
        return nil
    }
}
