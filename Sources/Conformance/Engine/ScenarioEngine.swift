import Foundation
import HTTP
import InputLimits
import JSON
import PushMocks
import Reports

/// Runs scenarios against a target whose pushes reach ringcheck's mocks: plays user A and the
/// callee's devices over HTTP, watches the mocks' capture log and the events feed, and judges.
///
/// Each run of a scenario gets fresh accounts (`Target.accounts` with its run number) and fresh
/// virtual devices, so runs can go concurrently.
public final class ScenarioEngine: Sendable {
    public let target: Target
    public let mocks: MockStack
    public let catalogue: RequirementCatalogue
    /// The suite's profile: its steps, how it reads pushes, its invariants.
    public let profile: any Profile
    let client: HTTPClient
    /// How long after the engine saw a call stop ringing an invitation may still arrive (in flight).
    public let inFlightMarginMs: Int64
    /// The base64 lines of the mocks' APNs key and service-account key: none may travel in a push.
    let providerSecrets: [String]
    /// The longest one scenario may take before it is stopped as a timeout.
    public let scenarioTimeout: Duration
    /// How often the events feed is read while waiting for an event.
    public let pollInterval: Duration
    /// The account slots of a target with fixed accounts (nil when every run gets fresh accounts).
    let slots: AccountSlots?
    /// How the scenarios' token clean-up went (`cleanUpWarnings`).
    public let cleanUpTally = CleanUpTally()
    /// The calls every scenario claimed, for pushes tied to their call by content.
    let claimedCalls = ClaimedCalls()

    public init(
        target: Target, mocks: MockStack, catalogue: RequirementCatalogue,
        profile: any Profile, scenarioTimeout: Duration = .seconds(60),
        pollInterval: Duration = .milliseconds(40), inFlightMarginMs: Int64 = 1000
    ) throws {
        self.target = target
        self.mocks = mocks
        self.catalogue = catalogue
        self.profile = profile
        self.scenarioTimeout = scenarioTimeout
        self.pollInterval = pollInterval
        self.inFlightMarginMs = inFlightMarginMs
        providerSecrets = Self.keyLines(mocks)
        slots = target.accountSlots.map { AccountSlots(count: $0) }
        client = try target.makeClient()
    }

    /// The base64 lines of the private keys the backend was given (each provider says its own: the
    /// `.p8` file, the service account's `private_key`), each long enough to be unmistakable in a push.
    package static func keyLines(_ mocks: MockStack) -> [String] {
        var seen: Set<MockProviderID> = []
        return mocks.providers.all.filter { seen.insert($0.id).inserted }.flatMap {
            type(of: $0).keyLines(mocks.settings)
        }
    }

    /// Stops the engine's HTTP client.
    public func shutdown() { client.shutdown() }

    /// The level of a requirement (SHOULD for an unknown or missing one).
    func level(_ requirement: String?) -> RequirementLevel {
        requirement.flatMap { catalogue[$0]?.level } ?? .should
    }

    /// Runs `scenario` as run number `run` (which picks its accounts) and judges it: one attempt's result.
    public func run(_ scenario: Scenario, run: Int) async -> ScenarioResult {
        if let reason = target.notApplicableReason(scenario) {
            return ScenarioResult(scenario, status: .notApplicable(reason: reason), durationMs: 0)
        }
        // With fixed accounts, a run waits for a free slot of them (before its time limit starts).
        let slot = await slots?.acquire()
        let state = ScenarioRun(engine: self, scenario: scenario, run: run, accountIndex: slot ?? run)
        let limit = scenarioTimeout + .milliseconds(scenario.answerAllowanceMs(on: target))
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
        let result = await state.result(timedOut: !finished, limit: limit)
        if target.cleanUp { await state.cleanUpBackend() }
        if let slot { await slots?.release(slot) }
        return result
    }
}

/// Hands out the slots of a target's fixed accounts, one run per slot at a time.
actor AccountSlots {
    private var free: [Int]
    private var waiting: [CheckedContinuation<Int, Never>] = []

    init(count: Int) { free = Array((0..<max(count, 1)).reversed()) }

    func acquire() async -> Int {
        if let slot = free.popLast() { return slot }
        return await withCheckedContinuation { waiting.append($0) }
    }

    func release(_ slot: Int) {
        if waiting.isEmpty {
            free.append(slot)
        } else {
            waiting.removeFirst().resume(returning: slot)
        }
    }
}
