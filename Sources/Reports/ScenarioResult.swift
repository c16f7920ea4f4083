import Foundation

/// What one scenario found: what the engine returns for each attempt, what `combining(_:)` makes of a
/// scenario's attempts, and what every report renders.
public struct ScenarioResult: Sendable, Equatable {
    public var id: String
    public var title: String
    public var requirements: [String]
    public var tags: [String]
    public var status: ScenarioStatus
    public var durationMs: Double
    public var failures: [CheckFailure]
    public var timeline: [TimelineItem]
    /// One shell line that re-runs just this scenario against the same target.
    public var rerunCommand: String
    /// How many times the scenario ran (`--repeat`), and how many of those passed.
    public var attempts: Int
    public var passedAttempts: Int
    /// The spread (ms) of each `race` step of every attempt: how far apart its requests left the client.
    /// A measurement of ringcheck's own timing for the console, not part of the JSON report.
    public var raceSpreadsMs: [Double]

    public init(
        id: String, title: String, requirements: [String], tags: [String] = [], status: ScenarioStatus,
        durationMs: Double, failures: [CheckFailure] = [], timeline: [TimelineItem] = [], rerunCommand: String,
        attempts: Int = 1, passedAttempts: Int? = nil, raceSpreadsMs: [Double] = []
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
        self.raceSpreadsMs = raceSpreadsMs
    }
}
