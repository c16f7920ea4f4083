extension ScenarioResult {
    /// True when the scenario failed only SHOULDs in a lenient run: a warning, which every report shows in
    /// its own look (amber, `⚠ WARN`, JUnit `skipped`) since it does not change the exit code. Under
    /// `--strict` the same scenario is a failure.
    ///
    ///     if s.isWarning(strict: run.strict) { mark = "⚠ WARN" }
    public func isWarning(strict: Bool) -> Bool {
        status.isFailure && !strict && !failures.isEmpty && failures.allSatisfy { $0.level == .should }
    }
}
