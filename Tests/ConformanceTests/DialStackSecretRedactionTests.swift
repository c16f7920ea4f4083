import AllProfiles
import Conformance
import DialStack
import Foundation
import HTTP
import JSON
import PushMocks
import Reports
import TestSupport
import Testing

/// The webhook signing secret is a secret: a backend that echoes it (in an error body, say) gets it shortened in
/// every timeline entry and piece of evidence of the outcome, as device tokens are.
@Suite struct DialStackSecretRedactionTests {
    @Test func anEchoedSecretIsRedactedInTheOutcome() async throws {
        let secret = "whsec_" + String(repeating: "k3y", count: 10)
        let handler = ClosureHandler { request in
            if request.path.hasPrefix("/webhooks") {
                return .text(500, "cannot verify with secret \(secret)")
            }
            return .json(200, "{}")
        }
        let suiteDir = TemporaryDirectory()
        let shipped = ConformanceFixtures.repositoryRoot + "/suites/dialstack"
        for name in ["suite.yaml", "requirements.yaml"] {
            try suiteDir.write(name, try String(contentsOfFile: shipped + "/" + name, encoding: .utf8))
        }
        try suiteDir.write(
            "leak.yaml",
            """
            id: leak.echo
            title: a backend that echoes the secret
            requirements: [DIALSTACK-SIG-1]
            devices:
              b-phone: {user: b, kind: apnsVoip}
            steps:
              - webhook: {user: b, expect: {requirement: DIALSTACK-SIG-1}}
            """)
        let suite = try Suite.load(directory: suiteDir.path)
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        let outcome: ScenarioResult = try await withTestServer(handler: handler) { server in
            var target = Target(
                name: "leaky", baseURL: "http://127.0.0.1:\(server.port)",
                accounts: { TargetUser(userId: "u\($1)-\($0)", bearerToken: "token-\($1)-\($0)") },
                capabilities: [.faults], appId: mocks.providers.credentials.bundleID)
            target.webhook = WebhookEndpoint(path: "/webhooks/dialstack", secret: secret)
            let engine = try ScenarioEngine(
                target: target, mocks: mocks, catalogue: suite.catalogue, profile: suite.profile)
            defer { engine.shutdown() }
            return await engine.run(try #require(suite.scenario("leak.echo")), run: 0)
        }
        #expect(outcome.failures.map(\.requirement) == ["DIALSTACK-SIG-1"])
        let texts =
            outcome.timeline.flatMap { [$0.summary, $0.detail ?? ""] }
            + outcome.failures.flatMap { f in [f.actual] + f.evidence.flatMap { [$0.title, $0.text] } }
        #expect(texts.contains { $0.contains("cannot verify with secret") }, "the echo is on the timeline")
        #expect(!texts.contains { $0.contains(secret) }, "\(texts)")
    }
}
