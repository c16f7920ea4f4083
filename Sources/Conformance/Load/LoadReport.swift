import Foundation
import Reports

/// What `ringcheck load` reports (`load-report.json`, schema `ringcheck.load/1`:
/// docs/load-report.schema.json): the verdict, the figures, and every violation with the call it concerns
/// (`LoadViolation`, the one model of a load finding).
public struct LoadReport: Sendable, Equatable, Codable {
    /// `ringcheck.load/1`.
    public var schema = LoadReport.schemaID
    public var verdict: Verdict
    /// What ringcheck exits with: the verdict's code, or the interruption's.
    public var exitCode: Int32 = 0
    /// The signal that stopped the run early, if one did.
    public var interrupted: Interruption?
    public var profile: String
    public var target: String
    /// The plan, in words (`4 calls/s, for 10 s`), and its parts.
    public var plan: String
    public var rate: Double?
    public var concurrency: Int?
    public var startedAtMs: Int64
    /// From the first call started to the last one finished.
    public var callSeconds: Double
    /// The whole run, settling and the final feed reads included.
    public var totalSeconds: Double
    public var callsStarted: Int
    public var callsFinished: Int
    public var callsFailed: Int
    /// Calls by script (`race`, `cancel`, …).
    public var scripts: [String: Int]
    /// Calls finished per second of `callSeconds`.
    public var callsPerSecond: Double
    public var requests: Int
    /// Requests that got no answer at all (connection errors, timeouts).
    public var transportErrors: Int
    public var pushes: Int
    public var invitations: Int
    /// Per endpoint (`create`, `answer`, `end`, `get`, `events`, `register`).
    public var endpoints: [LatencyFigures]
    /// From the request that caused a push to its arrival at the mock.
    public var pushLatency: [LatencyFigures]
    /// The backend's CPU and memory, when it runs on this machine.
    public var resources: ResourceFigures?
    public var historyViolations: [LoadViolation]
    public var invariantViolations: [LoadViolation]
    /// What got in the way (calls that failed, feeds that could not be read), at most 20.
    public var problems: [String]
    /// Why the verdict is inconclusive, when it is.
    public var inconclusiveReason: String?

    /// The schema this report follows.
    public static let schemaID = "ringcheck.load/1"
    /// The report's file name in the report folder (not run's `report.json`: it has another schema).
    public static let fileName = "load-report.json"

    /// Marks the run as stopped early by signal number `signal`: it exits 128 + the signal.
    public mutating func interrupt(by signal: Int32) {
        let interruption = Interruption(signalNumber: signal)
        interrupted = interruption
        exitCode = interruption.exitCode
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// The verdict of these findings: a broken MUST (with `strict`, any broken requirement) is
    /// non-conformant; otherwise a run that could not judge enough is inconclusive.
    static func verdict(
        history: [LoadViolation], invariants: [LoadViolation], inconclusive: String?, strict: Bool = false
    ) -> Verdict {
        let counts: (RequirementLevel) -> Bool = { strict || $0 == .must }
        if history.contains(where: { counts($0.level) }) || invariants.contains(where: { counts($0.level) }) {
            return .nonConformant
        }
        return inconclusive == nil ? .conformant : .inconclusive
    }
}

/// What a load run found. (The history it judged is not kept: each call's was dropped once judged.)
public struct LoadResult: Sendable {
    public var report: LoadReport

    /// The result of a run that could not start its calls (devices could not be registered): inconclusive.
    static func setupFailed(
        _ reason: String, profile: String, target: String, plan: LoadPlan, summary: String, startedAtMs: Int64
    ) -> LoadResult {
        LoadResult(
            report: LoadReport(
                verdict: .inconclusive, exitCode: Verdict.inconclusive.exitCode, profile: profile, target: target,
                plan: summary, rate: plan.rate,
                concurrency: plan.concurrency, startedAtMs: startedAtMs, callSeconds: 0, totalSeconds: 0,
                callsStarted: 0, callsFinished: 0, callsFailed: 0, scripts: [:], callsPerSecond: 0, requests: 0,
                transportErrors: 0, pushes: 0, invitations: 0, endpoints: [], pushLatency: [], resources: nil,
                historyViolations: [], invariantViolations: [], problems: [reason], inconclusiveReason: reason))
    }
}
