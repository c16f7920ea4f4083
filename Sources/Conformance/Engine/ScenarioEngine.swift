import Foundation
import HTTP
import JSON
import PushMocks

/// Runs scenarios against a target whose pushes reach ringcheck's mocks: plays user A and the
/// callee's devices over HTTP, watches the mocks' capture log and the events feed, and judges.
///
/// Each run of a scenario gets fresh accounts (`Target.accounts` with its run number) and fresh
/// virtual devices, so runs can go concurrently.
public final class ScenarioEngine: Sendable {
    public let target: Target
    public let mocks: MockStack
    public let catalogue: RequirementCatalogue
    let client: HTTPClient
    /// Checks applied to every scenario's captured pushes and events (the invariants).
    let invariants: @Sendable (InvariantInput) -> [CheckFailure]
    /// The longest one scenario may take before it is stopped as a timeout.
    public let scenarioTimeout: Duration
    /// How often the events feed is read while waiting for an event.
    public let pollInterval: Duration

    public init(
        target: Target, mocks: MockStack, catalogue: RequirementCatalogue, scenarioTimeout: Duration = .seconds(60),
        pollInterval: Duration = .milliseconds(40),
        invariants: @escaping @Sendable (InvariantInput) -> [CheckFailure] = { _ in [] }
    ) throws {
        self.target = target
        self.mocks = mocks
        self.catalogue = catalogue
        self.scenarioTimeout = scenarioTimeout
        self.pollInterval = pollInterval
        self.invariants = invariants
        // libcurl cannot reuse h2c prior-knowledge connections: plain-HTTP backends get HTTP/1.1.
        let version: ClientHTTPVersion = target.baseURL.hasPrefix("https://") ? .automatic : .http1_1
        client = try HTTPClient(
            configuration: .init(timeoutSeconds: 15, connectTimeoutSeconds: 5, httpVersion: version))
    }

    /// Stops the engine's HTTP client.
    public func shutdown() { client.shutdown() }

    /// The level of a requirement (SHOULD for an unknown or missing one).
    func level(_ requirement: String?) -> RequirementLevel {
        requirement.flatMap { catalogue[$0]?.level } ?? .should
    }

    /// Runs `scenario` as run number `run` (which picks its accounts) and judges it.
    public func run(_ scenario: Scenario, run: Int) async -> ScenarioOutcome {
        if let reason = target.notApplicableReason(scenario) {
            return ScenarioOutcome(scenarioId: scenario.id, status: .notApplicable(reason: reason), durationMs: 0)
        }
        let state = ScenarioRun(engine: self, scenario: scenario, run: run)
        let limit = scenarioTimeout
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await state.execute() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        return await state.outcome(timedOut: !finished)
    }
}

/// What the invariant checks look at after a scenario: every push the mocks captured for its devices
/// and every event its users' feeds returned.
public struct InvariantInput: Sendable {
    public struct Device: Sendable {
        public var name: String
        public var kind: VirtualDevice.Kind
        public var environment: VirtualDevice.Environment?
        public var token: String
        public var installationId: String
    }
    public var scenarioId: String
    public var devices: [Device]
    /// Pushes to the scenario's devices, oldest first.
    public var captures: [Capture]
    /// Events as the feeds returned them, per reader (`a`, `b-phone`), in order read.
    public var events: [(reader: String, event: JSONValue)]
    /// Call snapshots seen in responses (callId → latest snapshot), for expiry and state checks.
    public var snapshots: [String: JSONValue]
    /// The APNs topic the mocks expect (`<bundle>.voip`).
    public var apnsTopic: String
}
