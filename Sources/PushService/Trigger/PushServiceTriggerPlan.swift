import Conformance
import JSON

/// What `ringcheck trigger push-service` sends and watches: one call (`incoming`, then `ended` with the same id
/// after `endAfter`) or one normal notification to `externalId`, through the service at `baseURL` as the app
/// server of `appId` (REST key `apiKey`), with virtual devices registered for the external ID so that its pushes
/// can be seen on ringcheck's mocks, and the delivery counts read back (`GET /notifications/{id}`).
///
/// ```swift
/// var plan = PushServiceTriggerPlan(baseURL: "http://127.0.0.1:8080", appId: appId, apiKey: key, externalId: "alex")
/// plan.kind = .notification
/// plan.ttl = 600
/// ```
public struct PushServiceTriggerPlan: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case call
        case notification
    }

    /// The service's base URL (`http://host:port`); the seed's routes are under it.
    public var baseURL: String
    public var appId: String
    /// The app's REST API key (never printed).
    public var apiKey: String
    /// The external ID the notification targets and the virtual devices register under.
    public var externalId: String
    public var kind = Kind.call
    /// A call's `call.id`; "" lets the service generate one (PUSHSVC-CALL-3), and `ended` then takes the id its
    /// pushes carried.
    public var callId: String
    /// A call's `call.timeout`: how long it rings, in seconds.
    public var ringSeconds = 30
    /// How long after `incoming` the call's `ended` is sent; nil sends none.
    public var endAfter: Duration? = .seconds(3)
    /// A normal notification's `headings.en` and `contents.en`, and its `ttl` when given.
    public var heading = "ringcheck"
    public var content = "A notification from ringcheck trigger"
    public var ttl: Int?
    /// Register the virtual phone (iOS, sandbox) and tablet (Android) for `externalId`.
    public var registerDevices = true
    /// Give the phone a PushKit VoIP token (without one it must get no call push, counted failed or errored).
    public var voipToken = true
    /// How long to keep watching after the last expected push.
    public var settle: Duration = .seconds(3)
    /// How long the expected pushes, and the counts' settling, may take (the seed's 30 s).
    public var budget: Duration = .seconds(30)
    /// Leave the virtual devices registered afterwards.
    public var keepDevices = false

    /// A plan for a call with a ringcheck call ID, registering the two virtual devices.
    public init(baseURL: String, appId: String, apiKey: String, externalId: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.appId = appId
        self.apiKey = apiKey
        self.externalId = externalId
        callId = RandomText.uuid()
    }

    /// A fresh external ID for the virtual devices (`ringcheck-trigger-3fa9c2d1`).
    public static func freshExternalId() -> String { "ringcheck-trigger-" + RandomText.hex(bytes: 4) }

    /// The body of the `k`-th request: the call's `incoming` (k = 0) or `ended`, or the notification.
    func body(ended: Bool, callId: String) -> JSONValue {
        switch kind {
        case .call:
            var call: [(key: String, value: JSONValue)] = [
                ("action", .string(ended ? "ended" : "incoming")), ("id", .string(callId)),
            ]
            if !ended {
                call += [
                    ("caller_name", "Ringcheck Trigger"), ("handle", "+14155551234"), ("is_video", .bool(false)),
                    ("timeout", .int(ringSeconds)),
                ]
            }
            return .object([("call", .object(call))])
        case .notification:
            var members: [(key: String, value: JSONValue)] = [
                ("headings", .object([("en", .string(heading))])), ("contents", .object([("en", .string(content))])),
            ]
            if let ttl { members.append(("ttl", .int(ttl))) }
            return .object(members)
        }
    }
}
