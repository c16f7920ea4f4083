import HTTP
import JSON

/// A OneSignal API error answer: a status and `{"errors": ["…", …]}`.
public struct OneSignalError: Error, Sendable, Equatable {
    public var status: Int
    public var messages: [String]

    /// Creates a value from its parts.
    public init(_ status: Int, _ messages: [String]) {
        self.status = status
        self.messages = messages
    }

    /// The answer's body and headers.
    public var response: HTTPResponse {
        let body: JSONValue = ["errors": .array(messages.map { .string($0) })]
        return HTTPResponse.json(status, body.bytes(), headers: ["content-type": "application/json; charset=utf-8"])
    }

    /// The reason recorded in a capture: the first message.
    public var reason: String { messages.first ?? "HTTP \(status)" }

    /// What OneSignal answers a missing, malformed or mismatched key (two spaces after "denied.", as sent).
    public static let accessDenied = OneSignalError(
        403,
        [
            "Access denied.  Please include an 'Authorization: ...' header with a valid API key "
                + "(https://documentation.onesignal.com/docs/en/keys-and-ids#api-keys)."
        ])
    /// A body without (or with an unreadable) `app_id`, OneSignal's words for it.
    public static let appIDNotFound = OneSignalError(
        400, ["app_id not found. You may be missing a Content-Type: application/json header."])
    /// A notification with no targeting parameter.
    public static let noTargeting = OneSignalError(
        400, ["You must include which players, segments, or tags you wish to send this notification to."])
    /// The 200 `errors` of a notification that reached nobody.
    public static let notSubscribed = "All included players are not subscribed"
}
