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
    /// An engine on a backend of their own for the scenarios that restart theirs (`runsAlone`): they
    /// then run on it, one at a time, while the others run on `engine`. Nil: they run one at a time
    /// on `engine` after all the others.
    public var aloneEngine: ScenarioEngine?

    public init(
        engine: ScenarioEngine, concurrency: Int = 12, repeatCount: Int = 1, failFast: Bool = false,
        rerunCommand: (@Sendable (String) -> String)? = nil, aloneEngine: ScenarioEngine? = nil
    ) {
        self.engine = engine
        self.aloneEngine = aloneEngine
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
    /// Scenarios start longest first (`startOrder`). Scenarios that restart the backend (`runsAlone`)
    /// run one at a time, on `aloneEngine` beside the others when there is one, else after them all.
    public func run(
        _ scenarios: [Scenario], onFinish: @escaping @Sendable (Scenario, [ScenarioResult]) async -> Void = { _, _ in }
    ) async -> [(scenario: Scenario, attempts: [ScenarioResult])] {
        let order = Self.startOrder(scenarios)
        let shared = order.filter { !scenarios[$0].runsAlone }
        let alone = order.filter { scenarios[$0].runsAlone }
        var results: [Int: [ScenarioResult]]
        if let aloneEngine {
            async let aside = run(scenarios, alone, on: aloneEngine, concurrency: 1, onFinish: onFinish)
            results = await run(scenarios, shared, on: engine, concurrency: concurrency, onFinish: onFinish)
            results.merge(await aside) { $1 }
        } else {
            results = await run(scenarios, shared, on: engine, concurrency: concurrency, onFinish: onFinish)
            let failed = results.values.contains { $0.contains { $0.status == .fail } }
            if !(failFast && failed) {
                results.merge(await run(scenarios, alone, on: engine, concurrency: 1, onFinish: onFinish)) { $1 }
            }
        }
        return scenarios.indices.compactMap { i in results[i].map { (scenarios[i], $0) } }
    }

    /// The indices of `scenarios` in the order they start: the longest `expectedDurationMs` first, so
    /// that the longest scenario is not the last to start; equal estimates keep the order given.
    public static func startOrder(_ scenarios: [Scenario]) -> [Int] {
        let estimates = scenarios.map(\.expectedDurationMs)
        return scenarios.indices.sorted { estimates[$0] != estimates[$1] ? estimates[$0] > estimates[$1] : $0 < $1 }
    }

    /// Runs the scenarios at `indices`, `concurrency` at a time; the attempts by index.
    private func run(
        _ scenarios: [Scenario], _ indices: [Int], on engine: ScenarioEngine, concurrency: Int,
        onFinish: @escaping @Sendable (Scenario, [ScenarioResult]) async -> Void
    ) async -> [Int: [ScenarioResult]] {
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
