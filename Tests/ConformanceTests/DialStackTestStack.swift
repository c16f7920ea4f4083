import AllProfiles
import Conformance
import DialStack
import Foundation
import PushMocks
import ReferenceBackend
import Reports
import TestSupport

/// The mocks, the wake-up reference backend wired to them with accounts for many runs, and an engine running the
/// dialstack suite on them.
final class DialStackTestStack: Sendable {
    let mocks: MockStack
    let server: DialStackServer
    let engine: ScenarioEngine
    let suite: Suite

    static var suiteDirectory: String { ConformanceFixtures.repositoryRoot + "/suites/dialstack" }

    static func account(_ name: String, run: Int) -> TargetUser {
        TargetUser(userId: "d\(run)-\(name)", bearerToken: "token-d\(run)-\(name)")
    }

    /// `slowPushDelayMs` shortens the `slow-push` defect's wait (it must stay above the latency bound); `callIdKey`
    /// is the key the pushes carry the call ID under (`DialStackConfiguration.callIdKey`).
    /// `wakeUpHold`: the backend enables Wake-Up Hold through DialStack's API on every registration, at the API
    /// the mocks' settings name (`RINGCHECK_DIALSTACK_API_URL`), or, when they name none, at a closed port: where
    /// a backend that follows the seed reaches without a mock of the API.
    static func start(
        defects: Set<DialStackDefect> = [], runs: Int = 40, slowPushDelayMs: Int64 = 20_000,
        suiteDirectory: String = suiteDirectory, callIdKey: String = "call_id", wakeUpHold: Bool = false
    ) async throws -> DialStackTestStack {
        let suite = try Suite.load(directory: suiteDirectory)
        let mocks = try await MockStack.start(.forTests)
        var users: [BackendUser] = []
        for run in 0..<runs {
            for name in ["a", "b", "c"] {
                let a = account(name, run: run)
                users.append(
                    BackendUser(
                        userId: a.userId, displayName: "User \(name)", handle: "dialstack:\(a.userId)",
                        bearerToken: a.bearerToken))
            }
        }
        let secret = "whsec_" + UUID().uuidString.lowercased()
        let environment = mocks.settings.environmentDictionary
        let api =
            DialStackAPIAccess(environment: environment)
            ?? DialStackAPIAccess(baseURL: "https://127.0.0.1:\(ClientTestPeer.closedPort())", apiKey: "sk_test")
        let configuration = DialStackConfiguration(
            webhookSecret: secret, slowPushDelayMs: slowPushDelayMs, defects: defects, callIdKey: callIdKey,
            dialStackAPI: wakeUpHold ? api : nil)
        let server = try DialStackServer(
            options: .init(
                configuration: configuration, users: UserDirectory(users),
                retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000)),
            providers: try PushProviderSettings(environment: environment))
        try server.start()
        var target = Target(
            name: "wake-up reference (test)", baseURL: server.baseURL, accounts: { account($0, run: $1) },
            capabilities: [.faults, .sandbox], appId: mocks.providers.credentials.bundleID)
        target.webhook = WebhookEndpoint(path: configuration.webhookPath, secret: secret)
        let engine = try ScenarioEngine(
            target: target, mocks: mocks, catalogue: suite.catalogue, profile: suite.profile,
            scenarioTimeout: .seconds(60))
        return DialStackTestStack(mocks: mocks, server: server, engine: engine, suite: suite)
    }

    private init(mocks: MockStack, server: DialStackServer, engine: ScenarioEngine, suite: Suite) {
        self.mocks = mocks
        self.server = server
        self.engine = engine
        self.suite = suite
    }

    /// The opening lines of a dialstack target file for this stack's server and webhook (users and
    /// operations follow).
    var targetFileHeader: String {
        """
        baseURL: \(server.baseURL)
        profile: dialstack
        capabilities: [faults, sandbox]
        webhook: {path: /webhooks/dialstack, secret: \(engine.target.webhook!.secret)}
        """
    }

    func stop() async {
        engine.shutdown()
        await server.stop()
        await mocks.stop()
    }

    /// Runs `ids` (default: the whole suite) concurrently, one attempt each.
    func run(_ ids: [String]? = nil) async -> [(scenario: Scenario, attempts: [ScenarioResult])] {
        let chosen = ids.map { ids in suite.scenarios.filter { ids.contains($0.id) } } ?? suite.scenarios
        return await SuiteRunner(engine: engine, concurrency: 12, repeatCount: 1).run(chosen)
    }

    /// The requirements charged in `results`, each once.
    static func failedRequirements(_ results: [(scenario: Scenario, attempts: [ScenarioResult])]) -> Set<String> {
        Set(results.flatMap { $0.attempts.flatMap { $0.failures.compactMap(\.requirement) } })
    }

    /// `scenario: status; failures` lines, for a failing expectation's message.
    static func describe(_ results: [(scenario: Scenario, attempts: [ScenarioResult])]) -> String {
        results.map { r in
            let o = r.attempts.last!
            return "\(r.scenario.id): \(o.status.name) "
                + o.failures.map { "\($0.requirement ?? "?") \($0.check): expected \($0.expected), got \($0.actual)" }
                .joined(separator: " | ")
        }.joined(separator: "\n")
    }
}
