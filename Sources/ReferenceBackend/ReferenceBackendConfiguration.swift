/// How the reference backend behaves: ring time, event retention, media credential lifetime,
/// and any defect switches.
public struct ReferenceBackendConfiguration: Sendable {
    /// How long a call rings before it ends as unanswered (`--ring-seconds`).
    public var ringSeconds: Int
    /// How many events each user's feed keeps (`--event-retention`); older cursors get a gap.
    public var eventRetention: Int
    /// How long media credentials are valid.
    public var mediaSessionSeconds: Int
    /// The defects switched on; empty for a conforming backend.
    public var defects: Set<Defect>

    public init(
        ringSeconds: Int = 30, eventRetention: Int = 1_000, mediaSessionSeconds: Int = 300, defects: Set<Defect> = []
    ) {
        self.ringSeconds = ringSeconds
        self.eventRetention = eventRetention
        self.mediaSessionSeconds = mediaSessionSeconds
        self.defects = defects
    }
}
