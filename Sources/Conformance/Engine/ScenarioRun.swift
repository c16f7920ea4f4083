import Foundation
import HTTP
import JSON
import PushMocks
import Reports

/// The setup could not be done (a setup request failed, a reference named nothing): the scenario
/// stops as a harness error, never charged to a requirement.
package struct HarnessStop: Error {
    var message: String

    package init(message: String) { self.message = message }
}

/// A virtual device of one scenario run: a fresh installation with its own push token.
public struct DeviceIdentity: Sendable {
    package var name: String
    package var user: String
    package var kind: VirtualDevice.Kind
    package var environment: VirtualDevice.Environment?
    package var installationId: String
    /// The registered token (first) and any the scenario registered since; pushes to any are the device's.
    package var tokens: [String]
    var token: String { tokens.last ?? "" }
}

/// One HTTP request a step sends, before and after. Public so that a profile can observe it
/// (`Profile.observeResponse`); its members are the engine's own.
public struct Exchange: Sendable {
    var actor: String
    var method: String
    var path: String
    var headers: [(String, String)]
    var body: JSONValue?
    package var status: Int?
    package var responseBody: [UInt8] = []
    package var json: JSONValue?
    package var error: String?
    var operation: RequestOperation?
    /// The media-session object of the (normalized) response, if it carried one.
    package var media: JSONValue?

    package var isSuccess: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// The state of one scenario run: accounts, devices, saved values, what was consumed, and what was found.
/// Public so that a profile's steps and invariants can run on it (`RunContext` is the part they use).
public actor ScenarioRun: RunContext {
    let engine: ScenarioEngine
    public let scenario: Scenario
    let run: Int
    /// Picks the accounts: the run number, or the slot it holds of a target's fixed accounts.
    let accountIndex: Int
    public let runTag: String
    let started = ContinuousClock.now
    /// The wall clock at the start, to place pushes (stamped with wall-clock arrival) on the timeline.
    let startedWallMs = Int64(Date().timeIntervalSince1970 * 1000)
    /// Captures already on the timeline.
    var timelinePushes: Set<Int> = []

    public internal(set) var users: [String: TargetUser] = [:]
    public internal(set) var devices: [String: DeviceIdentity] = [:]
    /// Devices whose tokens the scenario made gone (a provider fault saying so, a delete).
    public internal(set) var goneTokenDevices: Set<String> = []
    /// The tokens the backend accepted for each device (by name), in order, with what their answers saved:
    /// what deleteToken names and the clean-up deletes.
    var registrations: [String: [TokenRegistration]] = [:]
    /// The installations of users whose feed the scenario reads, registered at set-up like a device's
    /// (`RunContext.registerInstallation(ofUser:kind:token:)`, from a profile's `prepare(with:)`) but not one of
    /// the scenario's devices: no step or invariant judges their pushes.
    var userInstallations: [String: DeviceIdentity] = [:]
    public var resolver = ValueResolver(saved: [:])
    var consumedPushes: Set<Int> = []
    var failures: [CheckFailure] = []
    var timeline: [TimelineItem] = []
    var raceSpreads: [Double] = []
    /// The calls this scenario created: only their pushes and events are judged by the invariants (a
    /// target's fixed accounts are shared, so a feed and a device also see other scenarios' calls).
    public internal(set) var ownCalls: Set<String> = []
    /// Where in the mocks' arrival order the last `restartBackend` step began (`RunContext.backendRestartOrder`).
    public internal(set) var backendRestartOrder: UInt64?
    var harnessError: String?
    /// What each profile keeps of this run beside the engine's own state (a profile's `RunState`: the webhooks
    /// it sent, the calls it made), typed by its profile: `profileStates[P.self]` is a `P.RunState`.
    public var profileStates = ProfileRunStates()
    var finished = false

    init(engine: ScenarioEngine, scenario: Scenario, run: Int, accountIndex: Int? = nil) {
        self.engine = engine
        self.scenario = scenario
        self.run = run
        self.accountIndex = accountIndex ?? run
        runTag = "r\(run)-" + RandomText.alphanumeric(6).lowercased()
    }

    // MARK: The run's world (`RunContext`)

    public nonisolated var target: Target { engine.target }
    public nonisolated var mocks: MockStack { engine.mocks }
    public nonisolated var client: HTTPClient { engine.client }
    public nonisolated var pollInterval: Duration { engine.pollInterval }
    public nonisolated var inFlightMarginMs: Int64 { engine.inFlightMarginMs }
    public nonisolated var providerSecrets: [String] { engine.providerSecrets }
    public nonisolated var catalogue: RequirementCatalogue { engine.catalogue }

    // MARK: Running

    /// Runs every step; false when cancelled (the scenario's time ran out).
    func execute() async -> Bool {
        do {
            try await setUp()
            for step in scenario.steps {
                try Task.checkCancellation()
                try await perform(step)
            }
        } catch is CancellationError {
            return false
        } catch let stop as HarnessStop {
            harnessError = stop.message
            note("harness error: \(stop.message)")
        } catch let error as ReferenceError {
            harnessError = error.message
            note("harness error: \(error.message)")
        } catch {
            if Task.isCancelled { return false }
            harnessError = "\(error)"
            note("harness error: \(error)")
        }
        if Task.isCancelled { return false }
        recordJudgedPushes()
        failures += await engine.profile.invariantFailures(with: self)
        finished = true
        return true
    }

    /// This attempt's result, as the reports render it (re-run command: the plain `ringcheck run <id>`); `limit` is
    /// the time it was given (the engine's limit plus what its steps' answers may take).
    func result(timedOut: Bool, limit: Duration) -> ScenarioResult {
        let status: ScenarioStatus
        if timedOut || !finished {
            status = .timeout(message: "did not finish within \(limit)")
        } else if !failures.isEmpty {
            status = .fail
        } else if let harnessError {
            status = .error(message: Self.redactedForReports(harnessError, reportSecrets()))
        } else {
            status = .pass
        }
        // Pushes go in at their arrival time; keep the order of everything else as it happened.
        let ordered = timeline.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }
            .map(\.element)
        let shown = redactedForReports(timeline: ordered, failures: failures)
        return ScenarioResult(
            scenario, status: status, durationMs: elapsedMs, failures: shown.failures, timeline: shown.timeline,
            raceSpreadsMs: raceSpreads)
    }

    // MARK: Set-up

    private func setUp() async throws {
        for name in scenario.allUsers {
            guard var user = engine.target.accounts(name, accountIndex) else {
                throw HarnessStop(message: "the target has no account for user '\(name)'")
            }
            if let credentials = engine.target.credentials {
                do { user.authHeaders = try await credentials(name, accountIndex) } catch {
                    throw HarnessStop(message: "signing in user '\(name)' failed: \(error)")
                }
            }
            users[name] = user
        }
        var deviceValues: [(key: String, value: JSONValue)] = []
        for d in scenario.devices {
            let token = d.kind.newDeviceToken()
            let identity = DeviceIdentity(
                name: d.name, user: d.user, kind: d.kind, environment: d.environment,
                installationId: "\(runTag)-\(d.name)", tokens: [token])
            devices[d.name] = identity
            registerWithMocks(token: token, device: identity)
            deviceValues.append((d.name, deviceJSON(identity)))
        }
        resolver.saved["devices"] = .object(deviceValues)
        resolver.saved["users"] = .object(users.map { ($0.key, ["userId": .string($0.value.userId)]) })
        resolver.saved["run"] = ["tag": .string(runTag), "uuid": .string(RandomText.uuid())]
        for d in scenario.devices where d.registered {
            try await engine.profile.registerDevice(d, with: self)
        }
        try await engine.profile.prepare(with: self)
    }

    /// The installation scenario user `name` acts from (and reads its feed with) when no device acts.
    func userInstallationId(_ name: String) -> String { "\(runTag)-\(name)-feed" }

    func deviceJSON(_ d: DeviceIdentity) -> JSONValue {
        var m: [(key: String, value: JSONValue)] = [
            ("installationId", .string(d.installationId)), ("token", .string(d.token)), ("user", .string(d.user)),
            ("kind", .string(d.kind.rawValue)),
        ]
        if let e = d.environment { m.append(("environment", .string(e.rawValue))) }
        return .object(m)
    }

    public func addToken(_ token: String, toDevice name: String) throws {
        guard var d = devices[name] else { throw HarnessStop(message: "unknown device '\(name)'") }
        d.tokens.append(token)
        devices[name] = d
        registerWithMocks(token: token, device: d)
    }

    public func setTokenKind(_ kind: DeviceRegistry.TokenKind?, ofToken token: String, device name: String) throws {
        guard let d = devices[name], d.tokens.contains(token) else {
            throw HarnessStop(message: "device '\(name)' holds no such token")
        }
        registerWithMocks(token: token, device: d, tokenKind: kind)
    }

    /// Tells the mocks the token is valid in its environment (APNs rejects it in the other one) and what it
    /// was issued for (the channel's token kind unless told otherwise: APNs refuses a push of the other
    /// family to it).
    func registerWithMocks(token: String, device: DeviceIdentity) {
        registerWithMocks(token: token, device: device, tokenKind: device.kind.tokenKind)
    }

    private func registerWithMocks(token: String, device: DeviceIdentity, tokenKind: DeviceRegistry.TokenKind?) {
        let env: APNsEnvironment? = device.kind.hasEnvironments ? device.environment ?? .production : nil
        engine.mocks.providers.registry.register(token: token, environment: env, atMs: nowMs, tokenKind: tokenKind)
    }

    // MARK: Steps

    private func perform(_ s: ScenarioStep) async throws {
        record(.step, "ringcheck", "\(s.path) \(s.step.kind)")
        switch s.step {
        case .registerToken, .deleteToken, .request:
            let (request, options) = try prepare(s.step)
            let exchange = await send(request)
            noteTokens(of: s.step, succeeded: exchange.isSuccess)
            try judge(exchange, options, step: s, inRace: false)
            if case .registerToken(let r) = s.step, exchange.isSuccess, let tokenValue = r.token {
                let token = try resolver.string(tokenValue)
                if devices[r.device]?.tokens.contains(token) == false { try addToken(token, toDevice: r.device) }
            }
        case .expectPush(let e):
            try await expectPush(e, step: s)
        case .expectNoPush(let e):
            try await expectNoPush(e, step: s)
        case .race(let r):
            try await race(r, step: s)
        case .expectNotLogged(let e):
            try await expectNotLogged(e, step: s)
        case .fault(let f):
            var plan = f.plan
            if let name = f.device {
                guard let d = devices[name] else { throw HarnessStop(message: "\(s.path): unknown device \(name)") }
                plan.mock = d.kind.provider
                plan.deviceToken = d.token
            }
            if plan.id == nil { plan.id = "\(runTag)-\(s.path)" }
            noteTokens(of: s.step, succeeded: true)
            do { try engine.mocks.faults.install(plan) } catch {
                throw HarnessStop(message: "\(s.path): \(error)")
            }
        case .save(let values):
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                resolver.saved[name] = try resolver.resolve(value)
            }
        case .restartBackend:
            try await restartBackend(step: s)
        case .wait(let d):
            try await Task.sleep(for: .milliseconds(d.milliseconds))
        case .profile(let p):
            try await p.base.perform(s, with: self)
        }
    }

    // MARK: Failures and the timeline

    public func level(_ requirement: String?) -> RequirementLevel { engine.level(requirement) }

    var elapsedMs: Double {
        let d = ContinuousClock.now - started
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    public var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    public func record(_ kind: TimelineItem.Kind, _ actor: String, _ summary: String, _ detail: String?) {
        timeline.append(TimelineItem(atMs: elapsedMs, kind: kind, actor: actor, summary: summary, detail: detail))
    }

    public func note(_ text: String) { record(.note, "ringcheck", text) }

    /// Charges a failed check to `requirement`. A check that names no requirement only waits for what
    /// later steps need: when it fails, the scenario cannot go on, so it stops as a harness error and its
    /// requirements are inconclusive (never an unattributed failure).
    public func fail(
        _ requirement: String?, check: String, expected: String, actual: String, evidence: [EvidenceItem]
    ) throws {
        guard let requirement else {
            throw HarnessStop(
                message: "\(check): expected \(expected), got \(actual) (the steps after it could not be judged)")
        }
        failures.append(
            CheckFailure(
                requirement: requirement, level: engine.level(requirement), check: check, expected: expected,
                actual: actual, evidence: evidence))
        record(.note, "ringcheck", "FAILED \(requirement): \(check)")
    }
}

/// Random text for tokens and IDs.
package enum RandomText {
    package static func hex(bytes: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(UInt8.random(in: 0...255, using: &g), radix: 16).leftPadded(2) }.joined()
    }

    package static func alphanumeric(_ n: Int) -> String {
        let chars = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var g = SystemRandomNumberGenerator()
        return String((0..<n).map { _ in chars[Int.random(in: 0..<chars.count, using: &g)] })
    }

    /// Shaped like a real FCM registration token: `<22 chars>:APA91b<134 chars>`.
    package static func fcmToken() -> String { PushChannel.fcm.newDeviceToken() }

    package static func uuid() -> String {
        let h = Array(hex(bytes: 16))
        var v = h
        v[12] = "4"
        v[16] = Array("89ab")[Int(String(h[16]), radix: 16)! % 4]
        let s = String(v)
        func part(_ a: Int, _ b: Int) -> Substring {
            s[s.index(s.startIndex, offsetBy: a)..<s.index(s.startIndex, offsetBy: b)]
        }
        return "\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }
}
