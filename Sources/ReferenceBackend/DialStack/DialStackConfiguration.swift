/// How the wake-up reference backend behaves: where it takes webhooks, the shared signing secret,
/// the time rules of the DialStack seed, and any defect switches.
public struct DialStackConfiguration: Sendable {
    /// The secret DialStack signs webhooks with (`DIALSTACK_WEBHOOK_SECRET`). Never logged.
    public var webhookSecret: String
    /// Where signed webhooks arrive.
    public var webhookPath: String
    /// How far the signature's `t=` may be from the clock, either way (the seed's 300 s).
    public var signatureToleranceSeconds: Int64
    /// The seed's time budget from the call's arrival to its answer: the VoIP push's `apns-expiration`
    /// (now + this), the FCM ttl, and how long a failed push is retried.
    public var wakeWindowSeconds: Int64
    /// How long the `slow-push` defect waits before sending.
    public var slowPushDelayMs: Int64
    /// How long the `slow-answer` defect waits before sending (and so before answering the webhook): a little
    /// over the 15 s latency bound, so its runs stay short.
    public var slowAnswerDelayMs: Int64
    /// How long an event ID is remembered, so a redelivery does not ring again.
    public var eventRetentionSeconds: Int64
    /// The defects switched on; empty for a conforming backend.
    public var defects: Set<DialStackDefect>
    /// The key the pushes carry the webhook's call_id under: the seed's `call_id`, or the one the app's call
    /// library reads (flutter_callkit_incoming's `id`); the seed allows any ("whatever the shape").
    public var callIdKey: String
    /// DialStack's API, to enable Wake-Up Hold for a user when a device token is registered (a registration fails
    /// with 502 when DialStack refuses or does not answer); nil leaves the flag alone.
    public var dialStackAPI: DialStackAPIAccess?

    public init(
        webhookSecret: String, webhookPath: String = "/webhooks/dialstack", signatureToleranceSeconds: Int64 = 300,
        wakeWindowSeconds: Int64 = 30, slowPushDelayMs: Int64 = 20_000, slowAnswerDelayMs: Int64 = 16_000,
        eventRetentionSeconds: Int64 = 86_400, defects: Set<DialStackDefect> = [], callIdKey: String = "call_id",
        dialStackAPI: DialStackAPIAccess? = nil
    ) {
        self.webhookSecret = webhookSecret
        self.webhookPath = webhookPath
        self.signatureToleranceSeconds = signatureToleranceSeconds
        self.wakeWindowSeconds = wakeWindowSeconds
        self.slowPushDelayMs = slowPushDelayMs
        self.slowAnswerDelayMs = slowAnswerDelayMs
        self.eventRetentionSeconds = eventRetentionSeconds
        self.defects = defects
        self.callIdKey = callIdKey
        self.dialStackAPI = dialStackAPI
    }
}
