/// The scenario counts the console's summary line and the JSON report's `summary` give, with the scenarios that
/// failed only SHOULDs of a lenient run (`ScenarioResult.isWarning`) counted as `warning` rather than `fail` or
/// `flaky`: they do not change the exit code, and JUnit reports them `skipped`, not as failures.
extension RunResult {
    /// The names `summaryCounts` may hold, in the order the console prints them.
    public static let summaryCountNames = ["pass", "fail", "warning", "flaky", "notApplicable", "error", "timeout"]

    /// Scenario counts by status name, a SHOULD-only failure of a lenient run under `warning` (not `fail` or
    /// `flaky`); names with no scenario are absent.
    ///
    ///     run.summaryCounts  // ["pass": 5, "warning": 5] for a run whose five failures are SHOULD warnings
    public var summaryCounts: [String: Int] {
        var counts: [String: Int] = [:]
        for s in scenarios { counts[s.isWarning(strict: strict) ? "warning" : s.status.name, default: 0] += 1 }
        return counts
    }

    /// How many scenarios failed only SHOULDs of a lenient run: the JSON summary's `warning`.
    public var warningScenarioCount: Int { scenarios.filter { $0.isWarning(strict: strict) }.count }
}
