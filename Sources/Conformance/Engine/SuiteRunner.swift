import Reports

/// Runs many scenarios through one engine, several at a time.
public struct SuiteRunner: Sendable {
    public var engine: ScenarioEngine
    /// How many scenarios run at once.
    public var concurrency: Int
    /// How many times each scenario runs (its attempts run one after another).
    public var repeatCount: Int
    /// Stop starting scenarios once one has failed.
    public var failFast: Bool
    /// The shell line that re-runs one scenario (by ID) the way this run ran it; nil keeps the engine's
    /// plain `ringcheck run <id>`.
    public var rerunCommand: (@Sendable (String) -> String)?
    /// Called as each scenario starts (for the console's live line); nil: nothing.
    public var onStart: (@Sendable (Scenario) async -> Void)?

    public init(
        engine: ScenarioEngine, concurrency: Int = 12, repeatCount: Int = 1, failFast: Bool = false,
        rerunCommand: (@Sendable (String) -> String)? = nil
    ) {
        self.engine = engine
        self.concurrency = max(1, concurrency)
        self.repeatCount = max(1, repeatCount)
        self.failFast = failFast
        self.rerunCommand = rerunCommand
    }

    /// The run number of attempt `attempt` of the scenario at `index`: it picks the scenario's accounts.
    public static func runNumber(index: Int, attempt: Int, repeatCount: Int) -> Int { index * repeatCount + attempt }

    /// Runs `scenarios`; `onFinish` is called as each scenario's attempts are all done. Returns the
    /// attempts of every scenario that ran, in the order given (with fail-fast, later ones may be missing);
    /// `ScenarioResult.combining(_:)` makes one scenario's result of them.
    /// Scenarios that restart the backend (`runsAlone`) run one at a time after all the others.
    public func run(
        _ scenarios: [Scenario], onFinish: @escaping @Sendable (Scenario, [ScenarioResult]) async -> Void = { _, _ in }
    ) async -> [(scenario: Scenario, attempts: [ScenarioResult])] {
        let shared = scenarios.indices.filter { !scenarios[$0].runsAlone }
        let alone = scenarios.indices.filter { scenarios[$0].runsAlone }
        var results = await run(scenarios, shared, concurrency: concurrency, onFinish: onFinish)
        let failed = results.values.contains { $0.contains { $0.status == .fail } }
        if !(failFast && failed) {
            results.merge(await run(scenarios, alone, concurrency: 1, onFinish: onFinish)) { $1 }
        }
        return scenarios.indices.compactMap { i in results[i].map { (scenarios[i], $0) } }
    }

    /// Runs the scenarios at `indices`, `concurrency` at a time; the attempts by index.
    private func run(
        _ scenarios: [Scenario], _ indices: [Int], concurrency: Int,
        onFinish: @escaping @Sendable (Scenario, [ScenarioResult]) async -> Void
    ) async -> [Int: [ScenarioResult]] {
        let engine = self.engine
        let repeatCount = self.repeatCount
        let rerunCommand = self.rerunCommand
        let onStart = self.onStart
        var results: [Int: [ScenarioResult]] = [:]
        await withTaskGroup(of: (Int, [ScenarioResult]).self) { group in
            var next = 0
            var stop = false
            func startNext() {
                guard next < indices.count, !stop else { return }
                let index = indices[next]
                let scenario = scenarios[index]
                next += 1
                group.addTask {
                    await onStart?(scenario)
                    var attempts: [ScenarioResult] = []
                    for attempt in 0..<repeatCount {
                        let number = SuiteRunner.runNumber(index: index, attempt: attempt, repeatCount: repeatCount)
                        var result = await engine.run(scenario, run: number)
                        if let rerunCommand { result.rerunCommand = rerunCommand(scenario.id) }
                        attempts.append(result)
                    }
                    await onFinish(scenario, attempts)
                    return (index, attempts)
                }
            }
            for _ in 0..<concurrency { startNext() }
            while let (index, attempts) = await group.next() {
                results[index] = attempts
                if failFast && attempts.contains(where: { $0.status == .fail }) { stop = true }
                startNext()
            }
        }
        return results
    }
}
