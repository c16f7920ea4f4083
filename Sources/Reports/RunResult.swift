import Foundation

/// Everything one `ringcheck run` found, in the form every report is rendered from.
public struct RunResult: Sendable, Equatable {
    /// The JSON report's schema name; bump the number on an incompatible change.
    public static let schema = "ringcheck.run/1"

    public var ringcheckVersion: String
    /// The profile the suite belongs to (`callx`, `dialstack`, …): which seed the backend was judged against.
    public var profile: String
    public var suite: SuiteDescription
    /// What was tested, as the user should read it (`embedded reference backend`, a base URL, …).
    public var target: String
    public var startedAt: Date
    public var finishedAt: Date
    /// The catalogue's requirements (all of them, evidenced or not).
    public var requirements: [RequirementInfo]
    public var scenarios: [ScenarioResult]
    /// Which part of a sharded run this is; nil for a whole run (or a merged one).
    public var shard: Shard?
    /// Strict judging (`--strict`): a failed SHOULD makes the run non-conformant too.
    public var strict: Bool
    /// Selected scenarios that never ran (`--fail-fast`, Ctrl-C), with the reason.
    public var notRun: [NotRunScenario]
    /// Set when a signal stopped the run: the reports hold what ran before it.
    public var interruption: Interruption?
    /// What the user must know about the run beside the verdict, each said once (a token clean-up that
    /// failed, so tokens piled up across scenarios); never a requirement's failure.
    public var notices: [String] = []
    /// Why the run stopped before any scenario (the backend did not answer, its lifecycle start failed,
    /// the mocks could not start); its selected scenarios are in `notRun`. Nil for a run that started.
    public var aborted: String?
    /// What `report merge` joined; nil for a run's own report.
    public var merge: MergeFacts?

    public init(
        ringcheckVersion: String, profile: String = "callx", suite: SuiteDescription, target: String, startedAt: Date,
        finishedAt: Date,
        requirements: [RequirementInfo], scenarios: [ScenarioResult], shard: Shard? = nil, strict: Bool = false,
        notRun: [NotRunScenario] = [], interruption: Interruption? = nil, notices: [String] = [],
        aborted: String? = nil, merge: MergeFacts? = nil
    ) {
        self.ringcheckVersion = ringcheckVersion
        self.profile = profile
        self.suite = suite
        self.target = target
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.requirements = requirements
        self.scenarios = scenarios
        self.shard = shard
        self.strict = strict
        self.notRun = notRun
        self.interruption = interruption
        self.notices = notices
        self.aborted = aborted
        self.merge = merge
    }

    /// Wall time of the run in seconds.
    public var durationSeconds: Double { finishedAt.timeIntervalSince(startedAt) }

    /// Why the run as a whole could not be judged, one line each: it stopped before any scenario, or
    /// (merged) a shard is missing or was interrupted. Reports show them beside the verdict, and JUnit as
    /// an `<error>` each, so a CI gate that reads only JUnit does not pass an incomplete run.
    public var runProblems: [(title: String, message: String)] {
        var problems: [(String, String)] = []
        if let aborted { problems.append(("stopped before any scenario", aborted)) }
        if let merge {
            for index in merge.missingShards {
                let shard = "shard \(index)/\(merge.shardCount ?? 0)"
                problems.append(
                    ("\(shard) missing", "no report.json of \(shard) was merged: its scenarios did not run"))
            }
            for line in merge.interrupted { problems.append(("interrupted \(line)", "\(line) stopped the run early")) }
        }
        return problems
    }

    /// The requirement with `id`.
    public func requirement(_ id: String) -> RequirementInfo? { requirements.first { $0.id == id } }
}

/// The suite a run used.
public struct SuiteDescription: Sendable, Equatable, Codable {
    public var id: String
    public var version: String
    public var title: String

    public init(id: String, version: String, title: String) {
        self.id = id
        self.version = version
        self.title = title
    }
}

/// A requirement as the reports show it.
public struct RequirementInfo: Sendable, Equatable, Codable {
    public var id: String
    public var level: RequirementLevel
    public var statement: String
    public var section: String

    public init(id: String, level: RequirementLevel, statement: String, section: String) {
        self.id = id
        self.level = level
        self.statement = statement
        self.section = section
    }
}
