import Conformance
import HTTP
import JSON
import PushMocks
import Synchronization
import TestSupport
import Testing

@testable import AllProfiles
@testable import Callx
@testable import Conformance

/// A raced Callx answer wins only as the installation it answered as: a backend that gives the loser
/// 2xx with the winner's snapshot (as the seed allows) has one winner, not two. The rule is Callx's
/// (`CallxProfile.isWinner`), carried to the engine's race by the answer request itself.
@Suite struct RaceWinnerTests {
    static let scenario = """
        id: race.late-snapshot
        title: both answers get 2xx, with the first answerer's snapshot
        requirements: [CALLX-ARB-1]
        devices:
          b-phone: {user: b, kind: apnsVoip}
          b-tablet: {user: b, kind: fcm}
        steps:
          - race:
              - answer: {device: b-phone, call: c1}
              - answer: {device: b-tablet, call: c1}
            expect: {winners: 1, requirement: CALLX-ARB-1}
        """

    @Test func aLoserWithTheWinnersSnapshotIsNoSecondWinner() async throws {
        // The first answer to arrive wins; every answer is told so, with 200.
        let first = Mutex<String?>(nil)
        let handler = ClosureHandler { request in
            guard request.path.hasSuffix("/answer"),
                let installation = (try? JSONValue.parse(request.body))?["installationId"]?.stringValue
            else { return .json(200, "{}") }
            let winner = first.withLock { w in
                if w == nil { w = installation }
                return w ?? installation
            }
            return .json(
                200, #"{"callId":"c1","state":"accepted","revision":"2","answeredByInstallationId":"\#(winner)"}"#)
        }
        let suite = try ProfileEngineTests.suite(Self.scenario, profile: CallxProfile())
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let outcome = try await withTestServer(handler: handler) { server in
            let target = Target(
                name: "late snapshot", baseURL: "http://127.0.0.1:\(server.port)",
                accounts: { TargetUser(userId: "u\($1)-\($0)", bearerToken: "t-\($1)-\($0)") }, capabilities: [],
                appId: mocks.providers.credentials.bundleID, eventPageLimit: nil, eventRetention: nil)
            let engine = try ScenarioEngine(
                target: target, mocks: mocks, catalogue: suite.catalogue, profile: CallxProfile())
            defer { engine.shutdown() }
            return await engine.run(try #require(suite.scenarios.first), run: 0)
        }
        #expect(outcome.raceSpreadsMs.count == 1)
        let checks = outcome.failures.map { "\($0.requirement ?? "-") \($0.check): \($0.actual)" }
        #expect(!checks.contains { $0.contains("race: requests answered 2xx") }, "\(checks)")
    }
}
