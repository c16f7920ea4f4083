import Reports

extension ScenarioResult {
    /// One attempt at `scenario`: its ID, title, requirements and tags, with what the attempt found. The
    /// re-run command is the plain `ringcheck run <id>`; a `SuiteRunner` given the run's own command line
    /// puts that in instead.
    init(
        _ scenario: Scenario, status: ScenarioStatus, durationMs: Double, failures: [CheckFailure] = [],
        timeline: [TimelineItem] = [], raceSpreadsMs: [Double] = []
    ) {
        self.init(
            id: scenario.id, title: scenario.title, requirements: scenario.requirements, tags: scenario.tags,
            status: status, durationMs: durationMs, failures: failures, timeline: timeline,
            rerunCommand: "ringcheck run " + scenario.id, raceSpreadsMs: raceSpreadsMs)
    }
}
