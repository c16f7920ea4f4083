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
    public var defects: Set<CallxDefect>
    /// Which HTTP API the server answers (`--api-shape`): the reference design's, or the alternate one.
    public var apiShape: APIShape

    public init(
        ringSeconds: Int = 30, eventRetention: Int = 1_000, mediaSessionSeconds: Int = 300,
        idempotencyRetentionSeconds: Int = 86_400, finishedPushRetentionSeconds: Int = 3_600,
        defects: Set<CallxDefect> = [], apiShape: APIShape = .reference
    ) {
        self.ringSeconds = ringSeconds
        self.eventRetention = eventRetention
        self.mediaSessionSeconds = mediaSessionSeconds
        self.idempotencyRetentionSeconds = idempotencyRetentionSeconds
        self.finishedPushRetentionSeconds = finishedPushRetentionSeconds
        self.defects = defects
        self.apiShape = apiShape
    }
}

/// The shape of the HTTP API in front of the same `CallService`.
public enum APIShape: String, Sendable, Equatable, CaseIterable {
    /// `CallxAPI`: the routes and bodies of the Callx backend reference design (`/v1/…`).
    case reference
    /// `AlternateAPI`: other routes and bodies (`/api/…`, installation in `X-Device-Id`, answer by
    /// asking for a media token), to prove that a target file alone can describe a backend.
    case alternate
    /// `NodeShapeAPI`: the alternate routes with a real public backend's other differences (token
    /// kind `voip`, no idempotency keys, numeric revisions and cursors, renamed states and reasons,
    /// a media token that is a JWT and answers without a snapshot).
    case node
}
