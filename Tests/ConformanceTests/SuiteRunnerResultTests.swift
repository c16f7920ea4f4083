import Conformance
import Foundation
import Reports
import Testing

/// What the engine returns is the reports' `ScenarioResult`: each attempt names its scenario, and the
/// runner stamps the re-run command it was given; `combining` makes the reported result of the attempts.
@Suite struct SuiteRunnerResultTests {
    @Test func attemptsAreReportResultsOfTheirScenario() async throws {
        let stack = try await EngineTestStack.start()
        let scenarios = stack.suite.scenarios.filter {
            ["arbitration.two-devices-race", "tokens.delete"].contains($0.id)
        }
        let runner = SuiteRunner(
            engine: stack.engine, concurrency: 2, repeatCount: 2, rerunCommand: { "ringcheck run \($0) --strict" })
        let results = await runner.run(scenarios)
        let plain = await stack.engine.run(scenarios[0], run: 150)
        await stack.stop()

        #expect(results.map(\.scenario.id) == scenarios.map(\.id))
        for (scenario, attempts) in results {
            #expect(attempts.count == 2)
            for attempt in attempts {
                #expect(attempt.id == scenario.id && attempt.title == scenario.title)
                #expect(attempt.requirements == scenario.requirements && attempt.tags == scenario.tags)
                #expect(attempt.rerunCommand == "ringcheck run \(scenario.id) --strict")
                #expect(attempt.attempts == 1 && attempt.status == .pass && attempt.passedAttempts == 1)
                #expect(!attempt.timeline.isEmpty)
            }
            let combined = ScenarioResult.combining(attempts)
            #expect(combined.status == .pass && combined.attempts == 2 && combined.passedAttempts == 2)
            if scenario.id == "arbitration.two-devices-race" {
                // Each attempt measured its race; the combined result keeps both for the console.
                #expect(combined.raceSpreadsMs.count == 2)
            }
        }
        // Without a runner's command line the engine's own result re-runs the scenario plainly.
        #expect(plain.rerunCommand == "ringcheck run \(scenarios[0].id)")
        #expect(plain.status == .pass)
    }
}
