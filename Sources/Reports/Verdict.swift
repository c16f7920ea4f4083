/// The run's verdict, which decides the exit code.
public enum Verdict: String, Sendable, Equatable, Codable {
    /// No MUST failed (SHOULD failures are warnings). Exit 0.
    case conformant
    /// At least one MUST failed. Exit 1.
    case nonConformant
    /// No MUST failed, but the harness could not judge everything (errors, timeouts, or nothing judged). Exit 3.
    case inconclusive

    /// The process exit code of ARCHITECTURE.md: 0 conformant, 1 non-conformant, 3 inconclusive.
    public var exitCode: Int32 {
        switch self {
        case .conformant: return 0
        case .nonConformant: return 1
        case .inconclusive: return 3
        }
    }

    /// How reports print it.
    public var label: String {
        switch self {
        case .conformant: return "conformant"
        case .nonConformant: return "non-conformant"
        case .inconclusive: return "inconclusive"
        }
    }
}

/// What the scenarios say about one requirement.
public enum RequirementVerdict: String, Sendable, Equatable, Codable {
    /// An evidencing scenario passed and none failed on it.
    case pass
    /// A failure names the requirement.
    case fail
    /// Evidencing scenarios could not run this requirement's checks (an error or a timeout stopped them).
    case inconclusive
    /// Every evidencing scenario was not applicable to the target.
    case notApplicable
    /// No scenario in this run evidences it.
    case notEvidenced
}

/// One requirement with its aggregated verdict.
public struct RequirementResult: Sendable, Equatable {
    public var requirement: RequirementInfo
    public var verdict: RequirementVerdict
    /// IDs of the scenarios that evidence it (those that declare it).
    public var scenarios: [String]
    /// IDs of the failed or flaky scenarios with a failure charged to it, in run order: a check may charge a
    /// requirement its scenario does not declare (every Callx invariant runs in every scenario).
    public var failedIn: [String] = []
}

extension RunResult {
    /// The failures of failed and flaky scenarios.
    public var failures: [CheckFailure] { scenarios.filter { $0.status.isFailure }.flatMap(\.failures) }

    /// Any failed MUST (in a strict run, any failed requirement) → non-conformant; otherwise an error or
    /// timeout, or no scenario judged at all → inconclusive; otherwise conformant (SHOULD failures are
    /// warnings). A run that left selected scenarios unrun (interrupted, stopped by `--fail-fast`, stopped
    /// before any scenario) and a merge that lacks a shard or holds an interrupted one are at best inconclusive.
    public var verdict: Verdict {
        if failures.contains(where: { $0.level == .must || strict }) { return .nonConformant }
        if interruption != nil || !notRun.isEmpty || aborted != nil || merge?.isComplete == false {
            return .inconclusive
        }
        // A failed scenario whose failures carry no level still says the backend misbehaved; without a
        // MUST the run cannot be called non-conformant, so it is at best inconclusive.
        if scenarios.contains(where: { $0.status.isFailure && $0.failures.isEmpty }) { return .inconclusive }
        if scenarios.contains(where: { $0.status.isHarnessProblem }) { return .inconclusive }
        if !scenarios.contains(where: { $0.status == .pass || $0.status.isFailure }) { return .inconclusive }
        return .conformant
    }

    /// The exit code of `verdict`; for an interrupted run 128 + the signal (130 for Ctrl-C, 143 for SIGTERM).
    public var exitCode: Int32 { interruption?.exitCode ?? verdict.exitCode }

    /// Failed SHOULDs: warnings of a conformant run (failures of a strict one).
    public var warnings: [CheckFailure] { failures.filter { $0.level == .should } }

    /// The IDs of the requirements that failed at `level`, sorted: what reports count (one requirement
    /// failed by twelve checks is one failed requirement).
    public func failedRequirements(_ level: RequirementLevel) -> [String] {
        Set(failures.filter { $0.level == level }.compactMap(\.requirement)).sorted()
    }

    /// Scenario counts by status name.
    public var statusCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for s in scenarios { counts[s.status.name, default: 0] += 1 }
        return counts
    }

    /// Every catalogue requirement with its verdict, in catalogue order.
    public var requirementResults: [RequirementResult] {
        requirements.map { info in
            let evidencing = scenarios.filter { $0.requirements.contains(info.id) }
            let failed = scenarios.contains { s in
                s.status.isFailure && s.failures.contains { $0.requirement == info.id }
            }
            let verdict: RequirementVerdict
            if failed {
                verdict = .fail
            } else if evidencing.isEmpty {
                verdict = .notEvidenced
            } else if evidencing.allSatisfy({ $0.status.name == "notApplicable" }) {
                verdict = .notApplicable
            } else if evidencing.contains(where: { $0.status.isHarnessProblem }) {
                // A scenario that failed on other requirements still ran this one's checks, and they held;
                // only a scenario that stopped before its checks leaves this requirement unjudged.
                verdict = .inconclusive
            } else {
                verdict = .pass
            }
            var result = RequirementResult(requirement: info, verdict: verdict, scenarios: evidencing.map(\.id))
            result.failedIn = scenarios.filter { s in
                s.status.isFailure && s.failures.contains { $0.requirement == info.id }
            }.map(\.id)
            return result
        }
    }
}
