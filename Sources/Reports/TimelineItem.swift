/// One moment of a scenario: a step, a request sent, a response or push received, an event seen, a note.
public struct TimelineItem: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        case step
        case request
        case response
        case push
        case event
        case note
    }

    /// Milliseconds since the scenario started.
    public var atMs: Double
    public var kind: Kind
    /// Who or what (`a`, `b-phone`, `apns`).
    public var actor: String
    /// One line (`POST /v1/calls`, `201 ringing rev 1`, `call.invited rev 1`).
    public var summary: String
    /// Redacted detail (headers and body), shown on demand.
    public var detail: String?

    public init(atMs: Double, kind: Kind, actor: String, summary: String, detail: String? = nil) {
        self.atMs = atMs
        self.kind = kind
        self.actor = actor
        self.summary = summary
        self.detail = detail
    }
}
