import Foundation

/// How one scenario ended.
public enum ScenarioStatus: Sendable, Equatable {
    case pass
    case fail
    /// Passed and failed across `--repeat` runs: counted as a failure.
    case flaky
    /// The target lacks something the scenario needs; never a pass.
    case notApplicable(reason: String)
    /// The harness could not run the scenario to a verdict (e.g. the backend was unreachable).
    case error(message: String)
    /// The scenario ran out of time; never a pass.
    case timeout(message: String)

    /// The status's name in reports: `pass`, `fail`, `flaky`, `notApplicable`, `error`, `timeout`.
    public var name: String {
        switch self {
        case .pass: return "pass"
        case .fail: return "fail"
        case .flaky: return "flaky"
        case .notApplicable: return "notApplicable"
        case .error: return "error"
        case .timeout: return "timeout"
        }
    }

    /// The reason or message of `notApplicable`, `error` and `timeout`.
    public var detail: String? {
        switch self {
        case .notApplicable(let s), .error(let s), .timeout(let s): return s
        default: return nil
        }
    }

    /// Builds a status from its name and detail (as stored in the JSON report).
    public init?(name: String, detail: String?) {
        switch name {
        case "pass": self = .pass
        case "fail": self = .fail
        case "flaky": self = .flaky
        case "notApplicable": self = .notApplicable(reason: detail ?? "")
        case "error": self = .error(message: detail ?? "")
        case "timeout": self = .timeout(message: detail ?? "")
        default: return nil
        }
    }

    /// True for `fail` and `flaky`: the backend did something wrong.
    public var isFailure: Bool { self == .fail || self == .flaky }
    /// True for `error` and `timeout`: the harness could not judge.
    public var isHarnessProblem: Bool { name == "error" || name == "timeout" }
}

/// The outcome of one scenario.
public struct ScenarioResult: Sendable, Equatable {
    public var id: String
    public var title: String
    public var requirements: [String]
    public var tags: [String]
    public var status: ScenarioStatus
    public var durationMs: Double
    public var failures: [Failure]
    public var timeline: [TimelineEntry]
    /// One shell line that re-runs just this scenario against the same target.
    public var rerunCommand: String
    /// How many times the scenario ran (`--repeat`), and how many of those passed.
    public var attempts: Int
    public var passedAttempts: Int

    public init(
        id: String, title: String, requirements: [String], tags: [String] = [], status: ScenarioStatus,
        durationMs: Double, failures: [Failure] = [], timeline: [TimelineEntry] = [], rerunCommand: String,
        attempts: Int = 1, passedAttempts: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.requirements = requirements
        self.tags = tags
        self.status = status
        self.durationMs = durationMs
        self.failures = failures
        self.timeline = timeline
        self.rerunCommand = rerunCommand
        self.attempts = attempts
        self.passedAttempts = passedAttempts ?? (status == .pass ? attempts : 0)
    }
}

/// One check that did not hold.
public struct Failure: Sendable, Equatable, Codable {
    /// The requirement the check evidences; nil when the engine could not attribute it.
    public var requirement: String?
    public var level: RequirementLevel
    /// What the check was, in one line (`VoIP push to b-phone has apns-expiration 0`).
    public var check: String
    public var expected: String
    public var actual: String
    /// The exchanges and pushes involved, secrets already redacted.
    public var evidence: [Evidence]

    public init(
        requirement: String?, level: RequirementLevel, check: String, expected: String, actual: String,
        evidence: [Evidence] = []
    ) {
        self.requirement = requirement
        self.level = level
        self.check = check
        self.expected = expected
        self.actual = actual
        self.evidence = evidence
    }
}

/// One piece of evidence: an HTTP exchange, a captured push, an event, or a note.
public struct Evidence: Sendable, Equatable, Codable {
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

/// One moment of a scenario: a request sent, a response or push received, an event seen.
public struct TimelineEntry: Sendable, Equatable, Codable {
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
