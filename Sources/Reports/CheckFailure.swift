/// One check that did not hold, charged to the requirement it evidences at that requirement's level.
public struct CheckFailure: Sendable, Equatable, Codable {
    /// The requirement the check evidences. The engine always names one (a check without a requirement
    /// stops its scenario as a harness error instead); nil only in results built elsewhere.
    public var requirement: String?
    public var level: RequirementLevel
    /// What was checked, and where, in one line (`steps[3] expectPush to b-phone`, `VoIP push to b-phone
    /// has apns-expiration 0`).
    public var check: String
    public var expected: String
    public var actual: String
    /// The exchanges and pushes involved, secrets already redacted.
    public var evidence: [EvidenceItem]

    public init(
        requirement: String?, level: RequirementLevel, check: String, expected: String, actual: String,
        evidence: [EvidenceItem] = []
    ) {
        self.requirement = requirement
        self.level = level
        self.check = check
        self.expected = expected
        self.actual = actual
        self.evidence = evidence
    }
}

/// One piece of evidence backing a failure: an HTTP exchange, a captured push, an event, or a note.
public struct EvidenceItem: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        case httpExchange
        case push
        case event
        case note
    }

    public var kind: Kind
    /// One line naming it (`POST /v1/calls → 201`).
    public var title: String
    /// The redacted content (headers and body as text, or JSON).
    public var text: String

    public init(kind: Kind, title: String, text: String) {
        self.kind = kind
        self.title = title
        self.text = text
    }
}
