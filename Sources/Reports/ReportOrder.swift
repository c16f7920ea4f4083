/// The order reports show things in: what failed before what passed.
enum ReportOrder {
    /// 0 failed or flaky, 1 error or timeout, 2 not applicable, 3 passed.
    static func rank(_ status: ScenarioStatus) -> Int {
        if status.isFailure { return 0 }
        if status.isHarnessProblem { return 1 }
        return status == .pass ? 3 : 2
    }

    /// `scenarios` with their positions in the run, failed ones first (stable within a rank).
    static func failedFirst(_ scenarios: [ScenarioResult]) -> [(index: Int, scenario: ScenarioResult)] {
        scenarios.enumerated().map { (index: $0.offset, scenario: $0.element) }
            .sorted { (rank($0.scenario.status), $0.index) < (rank($1.scenario.status), $1.index) }
    }

    /// The scenarios "What failed" lists: failed first, then errors and timeouts.
    static func whatFailed(_ scenarios: [ScenarioResult]) -> [(index: Int, scenario: ScenarioResult)] {
        failedFirst(scenarios).filter { rank($0.scenario.status) <= 1 }
    }

    /// A scenario's failures, MUST before SHOULD.
    static func mustFirst(_ failures: [CheckFailure]) -> [CheckFailure] {
        failures.filter { $0.level == .must } + failures.filter { $0.level != .must }
    }

    /// Requirement rows failed first, then inconclusive, then the rest, each in catalogue order.
    static func failingFirst(_ rows: [RequirementResult]) -> [RequirementResult] {
        let rank = { (v: RequirementVerdict) in v == .fail ? 0 : v == .inconclusive ? 1 : 2 }
        return rows.enumerated().sorted {
            (rank($0.element.verdict), $0.offset) < (rank($1.element.verdict), $1.offset)
        }
        .map(\.element)
    }
}
