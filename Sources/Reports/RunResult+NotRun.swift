import Foundation

/// A selected scenario that never ran: `--fail-fast` stopped the run after a failure, or Ctrl-C or
/// SIGTERM interrupted it. Reports list it with the reason so nobody mistakes a short run for a whole one.
public struct NotRunScenario: Sendable, Equatable, Codable {
    public var id: String
    public var title: String
    public var requirements: [String]
    public var tags: [String]
    /// Why it did not run, in one line (`--fail-fast: a scenario failed first`).
    public var reason: String
    public var rerunCommand: String

    public init(
        id: String, title: String, requirements: [String], tags: [String] = [], reason: String, rerunCommand: String
    ) {
        self.id = id
        self.title = title
        self.requirements = requirements
        self.tags = tags
        self.reason = reason
        self.rerunCommand = rerunCommand
    }
}

/// The signal that stopped a run before all its scenarios had run.
public struct Interruption: Sendable, Equatable, Codable {
    /// `SIGINT` or `SIGTERM` (or `signal N` for another).
    public var signal: String
    /// The process exit code: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM).
    public var exitCode: Int32

    public init(signal: String, exitCode: Int32) {
        self.signal = signal
        self.exitCode = exitCode
    }

    /// The interruption by signal number `number`.
    public init(signalNumber number: Int32) {
        let names: [Int32: String] = [2: "SIGINT", 15: "SIGTERM", 1: "SIGHUP"]
        self.init(signal: names[number] ?? "signal \(number)", exitCode: 128 + number)
    }
}
