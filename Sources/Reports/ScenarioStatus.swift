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
