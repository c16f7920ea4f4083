/// How the reference backend behaves: ring time, event retention, media credential lifetime,
/// and any defect switches.
public struct ReferenceBackendConfiguration: Sendable {
    /// How long a call rings before it ends as unanswered (`--ring-seconds`).
    public var ringSeconds: Int
    /// How many events each user's feed keeps (`--event-retention`); older cursors get a gap.
    public var eventRetention: Int
    /// How long media credentials are valid.
    public var mediaSessionSeconds: Int
    /// How long idempotency records are kept (a retry later than this runs again and, for a
    /// create, gets 409 because the callId is taken). Calls themselves are never deleted.
    public var idempotencyRetentionSeconds: Int
    /// How long finished push jobs (sent, cancelled, expired, failed, dropped) are kept.
    public var finishedPushRetentionSeconds: Int
    /// The defects switched on; empty for a conforming backend.
    public var defects: Set<Defect>

    public init(
        ringSeconds: Int = 30, eventRetention: Int = 1_000, mediaSessionSeconds: Int = 300,
        idempotencyRetentionSeconds: Int = 86_400, finishedPushRetentionSeconds: Int = 3_600,
        defects: Set<Defect> = []
    ) {
        self.ringSeconds = ringSeconds
        self.eventRetention = eventRetention
        self.mediaSessionSeconds = mediaSessionSeconds
        self.idempotencyRetentionSeconds = idempotencyRetentionSeconds
        self.finishedPushRetentionSeconds = finishedPushRetentionSeconds
        self.defects = defects
    }
}
