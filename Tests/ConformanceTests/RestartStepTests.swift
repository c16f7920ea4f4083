import Foundation
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// The `restartBackend` step: its grammar, the `needs: [restart]` rule, and which scenarios run alone.
@Suite struct RestartStepTests {
    static let header = """
        id: restart.sample
        title: Restart once
        requirements: [CALLX-ARB-1]

        """

    @Test func decodesWithOrWithoutAnEmptyMapping() throws {
        let loader = SuiteLoaderTests()
        let dir = try loader.suite([
            "r.yaml": Self.header + """
                needs: [restart]
                steps:
                  - restartBackend: {}
                  - restartBackend:
                """
        ])
        let suite = try Suite.load(directory: dir.path)
        let scenario = try #require(suite.scenario("restart.sample"))
        #expect(scenario.steps.map(\.step) == [.restartBackend, .restartBackend])
        #expect(scenario.runsAlone)
    }

    @Test func aScenarioThatRestartsMustDeclareTheCapability() throws {
        let errors = try SuiteLoaderTests().errors(
            Self.header + """
                steps:
                  - restartBackend: {}
                """)
        #expect(
            errors == ["s.yaml:5:5: steps[0].restartBackend: a scenario with this step must declare 'needs: [restart]'"]
        )
    }

    @Test func unknownFieldsAndRacesAreRefused() throws {
        let errors = try SuiteLoaderTests().errors(
            Self.header + """
                needs: [restart]
                steps:
                  - restartBackend: {wait: 2s}
                  - race:
                      - restartBackend: {}
                      - get: {as: a, call: x}
                """)
        #expect(
            errors.contains { $0.hasPrefix("s.yaml:6:22: steps[0].restartBackend: unknown field 'wait'") }, "\(errors)")
        #expect(errors.contains { $0.contains("steps[1].race[0]: 'restartBackend' cannot run in a race") }, "\(errors)")
    }

    /// A restart, and a fault that resets the backend's provider connection, would disturb the scenarios
    /// beside them: a push of theirs lost on the reset connection after the mock recorded its answer.
    @Test func theShippedScenariosThatRestartOrResetRunAlone() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let alone = suite.scenarios.filter(\.runsAlone)
        #expect(
            Set(alone.map(\.id)) == [
                "restart.ringing-call-survives", "restart.answered-call-survives", "delivery.reset-after-accept",
            ])
        let restarting = alone.filter { $0.steps.contains { $0.step == .restartBackend } }
        #expect(restarting.count == 2)
        #expect(restarting.allSatisfy { $0.needs.contains(.restart) && $0.requirements.contains("CALLX-E2E-3") })
    }
}
