/// What running one scenario found. The CLI turns it into the reports' `ScenarioResult`
/// (`Conformance` does not depend on `Reports`).
public struct ScenarioOutcome: Sendable {
    public enum Status: Sendable, Equatable {
        case pass
        case fail
        /// The target lacks a capability the scenario needs; never a pass.
        case notApplicable(reason: String)
        /// The harness could not set up what the scenario needed (a setup request failed, a bad reference).
        case error(message: String)
        /// The scenario ran past its time limit; never a pass.
        case timeout(message: String)
    }

    public var scenarioId: String
    public var status: Status
    public var durationMs: Double
    public var failures: [CheckFailure]
    public var timeline: [TimelineItem]
    /// The spread (ms) of each `race` step: how far apart its requests left the client.
    public var raceSpreadsMs: [Double]

    public init(
        scenarioId: String, status: Status, durationMs: Double, failures: [CheckFailure] = [],
        timeline: [TimelineItem] = [], raceSpreadsMs: [Double] = []
    ) {
        self.scenarioId = scenarioId
        self.status = status
        self.durationMs = durationMs
        self.failures = failures
        self.timeline = timeline
        self.raceSpreadsMs = raceSpreadsMs
    }
}

/// One check that did not hold, charged to the requirement it evidences at that requirement's level. The
/// engine always names one (a check without a requirement stops its scenario as a harness error instead);
/// `requirement` stays optional for results built elsewhere.
public struct CheckFailure: Sendable, Equatable {
    public var requirement: String?
    public var level: RequirementLevel
    /// One line: what was checked, and where (`steps[3] expectPush to b-phone`).
    public var check: String
    public var expected: String
    public var actual: String
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

/// An HTTP exchange, push, event or note backing a failure, secrets redacted.
public struct EvidenceItem: Sendable, Equatable {
    public enum Kind: String, Sendable { case httpExchange, push, event, note }
    public var kind: Kind
    public var title: String
    public var text: String

    public init(kind: Kind, title: String, text: String) {
        self.kind = kind
        self.title = title
        self.text = text
    }
}

/// One moment of a scenario, in milliseconds since it started.
public struct TimelineItem: Sendable, Equatable {
    public enum Kind: String, Sendable { case step, request, response, push, event, note }
    public var atMs: Double
    public var kind: Kind
    public var actor: String
    public var summary: String
    public var detail: String?

    public init(atMs: Double, kind: Kind, actor: String, summary: String, detail: String? = nil) {
        self.atMs = atMs
        self.kind = kind
        self.actor = actor
        self.summary = summary
        self.detail = detail
    }
}
