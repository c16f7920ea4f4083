import Reports

/// What a `RunSession` has finished so far, so that Ctrl-C or SIGTERM still writes the reports of the
/// scenarios that ran (marked interrupted, the rest listed as not run) before ringcheck exits.
actor RunRecord {
    private var finished: [String: ScenarioResult] = [:]
    private var report: (@Sendable ([String: ScenarioResult], Interruption) -> RunResult)?
    private var write: (@Sendable (RunResult) -> Void)?
    private var done = false
    private var frozen = false

    /// A scenario's combined result, as it finishes (until `freeze()`).
    func record(_ result: ScenarioResult) {
        if !frozen { finished[result.id] = result }
    }

    /// A signal arrived: scenarios that finish from now on ran against a backend being stopped, and are
    /// reported as not run rather than as its failures.
    func freeze() { frozen = true }

    /// How to build the run's result from the finished scenarios, and how to write its reports; until
    /// this is called (the backend is still starting), an interruption writes no reports.
    func prepare(
        report: @escaping @Sendable ([String: ScenarioResult], Interruption) -> RunResult,
        write: @escaping @Sendable (RunResult) -> Void
    ) {
        self.report = report
        self.write = write
    }

    /// The run finished normally: a signal from now on writes nothing (the reports are the whole run's).
    func finish() { done = true }

    /// Writes the interrupted run's reports, once, unless the run already finished.
    func writeInterrupted(signal: Int32) {
        guard !done, let report, let write else { return }
        done = true
        write(report(finished, Interruption(signalNumber: signal)))
    }
}
