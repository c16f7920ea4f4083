import AllProfiles
import Conformance
import Foundation
import TestSupport
import Testing

/// The order `SuiteRunner` starts scenarios in: the longest expected duration first, so that the run's
/// wall time comes close to its longest scenario.
@Suite struct SuiteRunnerScheduleTests {
    @Test func theEstimateAddsUpTheWaitsThatDoNotEndOnAnEvent() throws {
        let dir = try SuiteLoaderTests().suite([
            "s.yaml": """
            id: s.waits
            title: Waits
            requirements: [CALLX-ARB-1]
            needs: [faults, shortRing]
            devices:
              b-phone: {user: b, kind: apnsVoip}
            steps:
              - fault: {device: b-phone, times: 1, respond: {status: 503}, latencyMs: 1200}
              - create: {as: a, callee: b, save: call}
              - expectPush: {to: b-phone, call: $call.callId, within: 30s}
              - waitUntilExpiry: {call: $call, margin: 300ms}
              - expectNoPush: {to: b-phone, for: 2s}
            """
        ])
        let scenario = try #require(try Suite.load(directory: dir.path).scenario("s.waits"))
        // `within` ends on the push, so it does not count; the expiry wait counts a short ring.
        #expect(scenario.expectedDurationMs == 1200 + Target.shortRingSeconds * 1000 + 300 + 2000)
    }

    @Test func theLongestShippedScenarioStartsFirstAndTiesKeepTheirOrder() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let order = SuiteRunner.startOrder(suite.scenarios)
        #expect(Set(order) == Set(suite.scenarios.indices) && order.count == suite.scenarios.count)
        let estimates = order.map { suite.scenarios[$0].expectedDurationMs }
        #expect(estimates == estimates.sorted(by: >))
        #expect(suite.scenarios[order[0]].id == "delivery.no-retry-after-expiry")
        for k in order.indices.dropLast() where estimates[k] == estimates[k + 1] {
            #expect(order[k] < order[k + 1], "equal estimates keep the suite's order")
        }
        // A scenario with no fixed wait is estimated at zero and starts after every one that has one.
        let quick = try #require(suite.scenarios.firstIndex { $0.id == "basic.cancel-before-answer" })
        #expect(suite.scenarios[quick].expectedDurationMs < suite.scenarios[order[0]].expectedDurationMs)
    }
}
