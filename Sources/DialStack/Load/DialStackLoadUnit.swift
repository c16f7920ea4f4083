import Conformance
import Signing

/// One webhook of a DialStack load run, as its history check needs it: the event, whom it addresses, how it
/// was signed, the user's devices and every delivery of it.
struct DialStackLoadUnit: Sendable {
    var script: DialStackLoadScript
    var eventId: String
    /// `data.call_id`: how the pushes name the webhook.
    var callId: String
    var type: String
    /// The account the event addresses (whose `data.user_id` it carries), by its userId.
    var user: String
    var signature: WebhookSignatureVariant
    /// The user's virtual devices: each must be pushed exactly once for a wake-up.
    var devices: [VirtualCallee]
    /// Every delivery of the event, in order (a redelivery repeats the id, signed anew).
    var deliveries: [DialStackDelivery] = []

    /// Whether the event must wake the user's devices: a validly signed wake-up.
    var wakes: Bool { signature.isValid && type == DialStackEvent.wakeUpType }
    /// Whether it was validly delivered more than once.
    var redelivered: Bool { deliveries.filter(\.signedValidly).count > 1 }
    /// When the first delivery left.
    var firstSentMs: Int64? { deliveries.first?.sentAtMs }

    /// `webhook evt_… (call.mobile_push_wakeup for u0-l2, signature valid)`: how a finding names it.
    var name: String { "webhook \(eventId) (\(type) for \(user), signature \(signature.name))" }
}

extension HistoryRule {
    // MARK: The rules of a DialStack load run's history check (`DialStackLoadHistory`)

    /// Every webhook is answered as its signature and type say (2xx, or 401 for a bad signature).
    public static let webhookAnswer = HistoryRule("webhook-answer")
    /// A wake-up pushes every device of its user within the seed's 30 s.
    public static let wakeEveryDevice = HistoryRule("wake-every-device")
    /// A wake-up delivered once pushes each device once.
    public static let wakeOnce = HistoryRule("wake-once")
    /// A redelivered wake-up rings no device again.
    public static let noRingOnRedelivery = HistoryRule("no-ring-on-redelivery")
    /// No device of another user is pushed for a wake-up.
    public static let noOtherUser = HistoryRule("no-other-user")
    /// No push for an event that must wake nobody (another type).
    public static let noPushForOtherEvent = HistoryRule("no-push-for-other-event")
    /// No push for a webhook whose signature must be refused.
    public static let noPushForBadSignature = HistoryRule("no-push-for-bad-signature")

    /// DialStack's rules, in the order the report lists their violations.
    public static let dialStack: [HistoryRule] = [
        .webhookAnswer, .wakeEveryDevice, .wakeOnce, .noRingOnRedelivery, .noOtherUser, .noPushForOtherEvent,
        .noPushForBadSignature,
    ]
}
