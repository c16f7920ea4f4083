extension ScenarioResult {
    /// One scenario's result from its attempts (`--repeat`), given in the order they ran.
    ///
    /// A scenario that both passed and did not is `flaky` (a failure). The failures and timeline shown are
    /// those of the first failing attempt, else of the first that did not pass (an error, a timeout), else of
    /// the last; the duration is the longest attempt's; the race spreads are every attempt's. A failure that
    /// recorded no check says nothing about the backend, so it is a harness error (flaky or not). Combining one attempt
    /// gives it back (except for that last rule), so combined results can be combined again.
    public static func combining(_ attempts: [ScenarioResult]) -> ScenarioResult {
        precondition(!attempts.isEmpty, "a scenario result needs at least one attempt")
        let failing = attempts.first { $0.status == .fail } ?? attempts.first { $0.status != .pass }
        var result = failing ?? attempts[attempts.count - 1]
        let passed = attempts.reduce(0) { $0 + $1.passedAttempts }
        let shownFailed = result.status == .fail
        if passed > 0 && failing != nil { result.status = .flaky }
        if shownFailed && result.failures.isEmpty {
            result.status = .error(message: "failed without a finding")
        }
        result.durationMs = attempts.map(\.durationMs).max() ?? 0
        result.attempts = attempts.reduce(0) { $0 + $1.attempts }
        result.passedAttempts = passed
        result.raceSpreadsMs = attempts.flatMap(\.raceSpreadsMs)
        return result
    }
}
