import AllProfiles
import Conformance
import Foundation
import PushMocks
import ReferenceBackend
import Reports
import TestSupport

/// The mocks, the reference backend wired to them with accounts for many runs, and an engine on them.
final class EngineTestStack: Sendable {
    let mocks: MockStack
    let server: ReferenceBackendServer
    let engine: ScenarioEngine
    let suite: Suite

    static func account(_ name: String, run: Int) -> TargetUser {
        TargetUser(userId: "t\(run)-\(name)", bearerToken: "token-t\(run)-\(name)")
    }

    static func start(
        defects: Set<CallxDefect> = [], runs: Int = 200, capabilities: Set<Capability>? = nil,
        scenarioTimeout: Duration = .seconds(60), eventRetention: Int? = 40, ringSeconds: Int = 60,
        profile: (any Profile)? = nil
    ) async throws -> EngineTestStack {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let mocks = try await MockStack.start(.forTests)
        var users: [BackendUser] = []
        for run in 0..<runs {
            for name in ["a", "b", "c"] {
                let a = account(name, run: run)
                users.append(
                    BackendUser(
                        userId: a.userId, displayName: "User \(name)", handle: "callx:\(a.userId)",
                        bearerToken: a.bearerToken))
            }
        }
        let providers = try PushProviderSettings(environment: mocks.settings.environmentDictionary)
        // The backend's log, read by expectNotLogged (the file is left in the temporary folder).
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ringcheck-engine-\(UUID().uuidString.prefix(8)).log"
        ).path
        let server = try ReferenceBackendServer(
            options: .init(
                configuration: ReferenceBackendConfiguration(
                    ringSeconds: ringSeconds, eventRetention: eventRetention ?? 1_000, defects: defects),
                users: UserDirectory(users),
                retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000, idlePollMs: 250),
                sweepIntervalMs: 100, logFile: log),
            providers: providers)
        try server.start()
        var target = Target(
            name: "reference backend (test)", baseURL: server.baseURL, accounts: { account($0, run: $1) },
            capabilities: capabilities ?? [
                .faults, .sandbox, .shortRing, .pushSignals, .mediaSession, .eventRetention, .backendLog,
                .answerEndpoint, .idempotency,
            ],
            appId: mocks.providers.credentials.bundleID, eventPageLimit: 1, eventRetention: eventRetention)
        target.backendLog = log
        // As the embedded reference: calls ring long, and scenarios about expiry ask for a short ring.
        target.shortRingField = "ringSeconds"
        let engine = try ScenarioEngine(
            target: target, mocks: mocks, catalogue: suite.catalogue, profile: profile ?? suite.profile,
            scenarioTimeout: scenarioTimeout)
        return EngineTestStack(mocks: mocks, server: server, engine: engine, suite: suite)
    }

    private init(mocks: MockStack, server: ReferenceBackendServer, engine: ScenarioEngine, suite: Suite) {
        self.mocks = mocks
        self.server = server
        self.engine = engine
        self.suite = suite
    }

    func stop() async {
        engine.shutdown()
        await server.stop()
        await mocks.stop()
        if let log = engine.target.backendLog { try? FileManager.default.removeItem(atPath: log) }
    }

    /// Runs `scenarios` of `suite` (default: the whole shipped suite) concurrently.
    func run(_ ids: [String]? = nil, in other: Suite? = nil, repeatCount: Int = 1) async -> [(
        scenario: Scenario, attempts: [ScenarioResult]
    )] {
        let suite = other ?? self.suite
        let chosen = ids.map { ids in suite.scenarios.filter { ids.contains($0.id) } } ?? suite.scenarios
        return await SuiteRunner(engine: engine, concurrency: 12, repeatCount: repeatCount).run(chosen)
    }
}
