import Conformance
import Signing

/// What `ringcheck trigger dialstack` sends and watches: one `call.mobile_push_wakeup` (or another event type)
/// for `userId`, signed as `signature` says, delivered `1 + redeliveries` times to `webhookURL`, with virtual
/// devices registered for the user (when `bearer` is given) so that its pushes can be seen on ringcheck's mocks.
///
/// ```swift
/// var plan = DialStackTriggerPlan(webhookURL: "http://127.0.0.1:8080/webhooks/dialstack", secret: s, userId: "user-b")
/// plan.bearer = "token-user-b"
/// plan.redeliveries = 1
/// ```
public struct DialStackTriggerPlan: Sendable {
    /// Where the backend takes DialStack's webhooks (the full URL).
    public var webhookURL: String
    /// The secret DialStack signs with (never printed).
    public var secret: String
    /// `data.user_id`: whose devices the event wakes.
    public var userId: String
    /// `data.from_number` and `data.to_number`; nil keeps the profile's values.
    public var fromNumber: String?
    public var toNumber: String?
    /// The event type (`DialStackTriggerPlan.eventTypes`).
    public var eventType = DialStackEvent.wakeUpType
    public var signature = WebhookSignatureVariant.valid
    /// How often the same event (same `id`, signed anew) is delivered again once its pushes arrived.
    public var redeliveries = 0
    /// The backend's API, where the virtual devices register (`PUT /v1/installations/{id}/push-tokens/{kind}`).
    public var apiBaseURL: String
    /// The user's bearer token for that API; nil registers no device (pushes are still shown and judged).
    public var bearer: String?
    /// Another user whose virtual phone is registered too: a push for the event to it breaks DIALSTACK-WAKE-2.
    public var bystander: (userId: String, bearer: String)?
    /// How long to keep watching after the last expected push (or, when none is expected, after the last answer).
    public var settle: Duration = .seconds(3)
    /// How long the expected pushes may take (the seed's budget).
    public var pushBudget: Duration = .seconds(30)
    /// Leave the virtual devices registered afterwards.
    public var keepDevices = false

    /// The event types the trigger sends: the wake-up, and the two that must wake nobody.
    public static let eventTypes = DialStackEvent.types

    /// A plan for a validly signed wake-up of `userId`, registering no device; the API is the webhook's origin.
    public init(webhookURL: String, secret: String, userId: String) {
        self.webhookURL = webhookURL
        self.secret = secret
        self.userId = userId
        apiBaseURL = TriggerURL.origin(of: webhookURL) ?? webhookURL
    }

    /// Whether the event, as signed, must wake the user's devices.
    var wakes: Bool { signature.isValid && eventType == DialStackEvent.wakeUpType }

    /// The requirement the answer to the first delivery evidences, and the statuses it allows.
    var answerRule: (requirement: RequirementID, expected: String, ok: @Sendable (Int) -> Bool) {
        DialStackAnswerRule.rule(signature: signature, eventType: eventType)
    }
}
