import AllProfiles
import Callx
import Conformance
import Foundation
import HTTP
import PushMocks
import ReferenceBackend
import Reports
import TestSupport
import Testing

/// The whole Callx suite driven only through target files: the reference backend in its alternate API
/// shape (other routes, installation in a header, answer by media request, `{events, cursor, gap}`)
/// and in the reference shape described in a few lines.
@Suite(.serialized) struct TargetFileBackendTests {
    static var examples: String { ConformanceFixtures.repositoryRoot + "/examples/targets" }

    /// Scenarios that send raw requests to reference routes, which the alternate shape maps differently.
    static let rawRequestScenarios: Set = [
        "security.unauthenticated", "security.outsider-cannot-read", "tokens.unknown-kind-refused",
    ]

    /// In process nothing restarts the backend or reads its log (the target file's lifecycle does that
    /// in `ringcheck run`): those scenarios are not applicable, with the reason.
    static func lacking(_ scenario: Scenario, alsoLacking: Set<Capability> = []) -> String? {
        let missing = scenario.needs.filter { $0 == .restart || $0 == .backendLog || alsoLacking.contains($0) }
        guard missing.contains(where: { $0 == .restart || $0 == .backendLog }) else { return nil }
        return missing.isEmpty ? nil : "the target lacks " + missing.map(\.rawValue).joined(separator: ", ")
    }

    /// Every scenario passes, except those the target cannot run: not applicable with the reason.
    static func judge(_ results: [(scenario: Scenario, attempts: [ScenarioResult])], rawRequestsMapped: Bool) {
        #expect(results.count > 30)
        for (scenario, attempts) in results {
            let o = attempts[0]
            if let reason = lacking(scenario) {
                #expect(o.status == .notApplicable(reason: reason), "\(scenario.id): \(o.status)")
            } else if !rawRequestsMapped && rawRequestScenarios.contains(scenario.id) {
                guard case .notApplicable(let reason) = o.status else {
                    Issue.record("\(scenario.id): expected not applicable, got \(o.status)")
                    continue
                }
                #expect(reason.contains("raw request") && reason.contains("maps"), "\(scenario.id): \(reason)")
            } else {
                #expect(o.status == .pass, "\(scenario.id): \(o.status) \(TargetFileStack.findings(o))")
            }
        }
    }

    @Test func alternateShapeRunsTheWholeSuiteThroughItsTargetFile() async throws {
        let file = try TargetFile.load(path: Self.examples + "/reference-alternate.yaml")
        #expect(!file.capabilities.contains(.answerEndpoint))
        let results = try await SuiteRunGate.exclusive {
            try await TargetFileStack.run(file, shape: .alternate, slots: 6)
        }
        Self.judge(results, rawRequestsMapped: false)
    }

    @Test func referenceShapeRunsTheWholeSuiteFromAFewLines() async throws {
        let file = try TargetFile.load(path: Self.examples + "/reference.yaml")
        #expect(file.mapping.operations.isEmpty)
        let results = try await SuiteRunGate.exclusive {
            try await TargetFileStack.run(file, shape: .reference, slots: 6)
        }
        Self.judge(results, rawRequestsMapped: true)
    }

    @Test func nodeShapeRunsTheWholeSuiteThroughItsTargetFile() async throws {
        // A backend unlike the reference in every way a real one was: every scenario it can evidence
        // passes, every other one is not applicable with the reason.
        let file = try TargetFile.load(path: Self.examples + "/reference-node.yaml")
        let results = try await SuiteRunGate.exclusive {
            try await TargetFileStack.run(file, shape: .node, slots: 6)
        }
        #expect(results.count > 30)
        var passed = 0
        for (scenario, attempts) in results {
            let o = attempts[0]
            if let reason = Self.lacking(scenario, alsoLacking: [.idempotency]) {
                #expect(o.status == .notApplicable(reason: reason), "\(scenario.id): \(o.status)")
            } else if scenario.needs.contains(.idempotency) {
                #expect(o.status == .notApplicable(reason: "the target lacks idempotency"), "\(scenario.id)")
            } else if case .notApplicable(let reason) = o.status {
                let known = reason.contains("video call") || (reason.contains("raw request") && reason.contains("maps"))
                #expect(known, "\(scenario.id): \(reason)")
            } else {
                #expect(o.status == .pass, "\(scenario.id): \(o.status) \(TargetFileStack.findings(o))")
                passed += 1
            }
        }
        let video = try #require(results.first { $0.scenario.id == "payload.video-invitation" })
        guard case .notApplicable(let why) = video.attempts[0].status else {
            Issue.record("payload.video-invitation: \(video.attempts[0].status)")
            return
        }
        #expect(why.contains("creates a video call") && why.contains("videoCalls"))
        #expect(passed > 25)
    }

    @Test func theNodeShapeFailsWithoutItsValueMapsOrNumbers() async throws {
        // The node file's additions carry weight: without them the same backend is judged wrongly.
        let file = try TargetFile.load(path: Self.examples + "/reference-node.yaml")
        var noValues = file
        noValues.mapping.values = ValueMaps()
        let states = try await TargetFileStack.run(
            noValues, shape: .node, slots: 1, only: ["basic.answer-and-hang-up"])
        let a = try #require(states.first?.attempts.first)
        #expect(a.status != .pass, "RINGING is not ringing: \(a.status)")
        var noNumbers = file
        noNumbers.mapping.numbers = []
        let revisions = try await TargetFileStack.run(
            noNumbers, shape: .node, slots: 1, only: ["calls.revision-increments"])
        let b = try #require(revisions.first?.attempts.first)
        #expect(b.status == .fail)
        #expect(b.failures.contains { $0.requirement == "CALLX-CALL-7" }, "\(TargetFileStack.findings(b))")
    }

    @Test func aSecondRunOnTheSameAccountsStillPasses() async throws {
        // Fixed accounts outlive a run: literal operation and call IDs must not meet an earlier run's.
        let file = try TargetFile.load(path: Self.examples + "/reference-alternate.yaml")
        let ids = [
            "idempotency.create-retry", "idempotency.create-conflict", "idempotency.concurrent-creates",
            "lifecycle.answer-retry", "calls.idempotency-per-account",
        ]
        let results = try await TargetFileStack.run(file, shape: .alternate, slots: 1, only: ids, times: 2)
        #expect(results.count == ids.count * 2)
        for (scenario, attempts) in results {
            #expect(
                attempts[0].status == .pass,
                "\(scenario.id): \(attempts[0].status) \(TargetFileStack.findings(attempts[0]))")
        }
    }

    @Test func theAlternateShapeFailsWhenItsMappingIsWrong() async throws {
        // Without the snapshot under "call", the create answers miss their state: checks must fail.
        var file = try TargetFile.load(path: Self.examples + "/reference-alternate.yaml")
        file.mapping.operations[.create]?.response.snapshot = nil
        let results = try await TargetFileStack.run(
            file, shape: .alternate, slots: 1, only: ["basic.answer-and-hang-up"])
        let o = try #require(results.first?.attempts.first)
        #expect(o.status == .fail)
        #expect(o.failures.contains { $0.requirement == "CALLX-CALL-2" })
    }
}

/// Mocks, the reference backend wired to them in one API shape, and an engine driving it through a
/// target file whose users are replaced by `slots` accounts each (so scenarios run `slots` at once).
enum TargetFileStack {
    /// Runs `ids` (every scenario when nil) `times` times on `slots` fixed accounts of a reference backend of
    /// `shape`; `inspect` sees the backend and the results after the runs and their clean-up, before it stops.
    /// With `front`, ringcheck speaks to the handler it makes over the backend's service instead (a stricter
    /// backend in front of the same calls and pushes).
    static func run(
        _ loaded: TargetFile, shape: APIShape, slots: Int, only ids: [String]? = nil, times: Int = 1,
        inspect: (ReferenceBackendServer, [(scenario: Scenario, attempts: [ScenarioResult])]) throws -> Void = { _, _ in
        },
        front: ((CallService) -> any HTTPHandler)? = nil
    ) async throws -> [(scenario: Scenario, attempts: [ScenarioResult])] {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        let mocks = try await MockStack.start(.forTests)
        defer { mocks.stop() }
        var file = loaded
        var users: [BackendUser] = []
        for name in ["a", "b", "c"] {
            file.users[name] = (0..<slots).map { slot in
                let id = "tf\(slot)-\(name)"
                users.append(
                    BackendUser(
                        userId: id, displayName: "User \(name)", handle: "callx:\(id)", bearerToken: "tok-\(id)"))
                return TargetAccount(userId: id, auth: .headers(["authorization": "Bearer tok-\(id)"]))
            }
        }
        let server = try ReferenceBackendServer(
            options: .init(
                // A long ring, as the example files' backends: only the scenarios that wait for expiry
                // ask for a short one (through the files' `{shortRing: ringSeconds}`), so the others
                // are answered in time however busy the machine is.
                configuration: ReferenceBackendConfiguration(
                    ringSeconds: 60, eventRetention: file.eventRetention ?? 1_000, apiShape: shape),
                users: UserDirectory(users),
                retryPolicy: PushRetryPolicy(initialBackoffMs: 300, maxBackoffMs: 2_000, idlePollMs: 250),
                sweepIntervalMs: 100),
            providers: try PushProviderSettings(environment: mocks.settings.environmentDictionary))
        try server.start()
        file.baseURL = server.baseURL
        let frontServer = front.map {
            HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, loopCount: 1), handler: $0(server.service))
        }
        if let frontServer {
            try frontServer.start()
            file.baseURL = "http://127.0.0.1:\(frontServer.port)"
        }
        let engine = try ScenarioEngine(
            target: file.target(defaultAppId: mocks.providers.credentials.bundleID), mocks: mocks,
            catalogue: suite.catalogue)
        let chosen = ids.map { ids in suite.scenarios.filter { ids.contains($0.id) } } ?? suite.scenarios
        var results: [(scenario: Scenario, attempts: [ScenarioResult])] = []
        for _ in 0..<times { results += await SuiteRunner(engine: engine, concurrency: file.poolSize).run(chosen) }
        engine.shutdown()
        let inspected = Result { try inspect(server, results) }
        await frontServer?.stop()
        await server.stop()
        try inspected.get()
        return results
    }

    static func findings(_ o: ScenarioResult) -> String {
        o.failures.map { "\($0.requirement ?? "-") \($0.check): \($0.actual)" }.joined(separator: "; ")
    }
}
