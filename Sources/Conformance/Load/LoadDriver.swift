import Foundation
import HTTP
import JSON
import PushMocks
import Synchronization

/// Puts a backend under many concurrent calls and records the history: creates, invitations to
/// several devices per callee, racing answers, cancels, declines, expiries and hang-ups at the plan's
/// rate or concurrency, each feed read as it goes, every push the mocks capture. `run()` then judges
/// the pushes with the profile's invariants (`InvariantChecker`) and the history with `HistoryChecker`.
public final class LoadDriver: Sendable {
    let target: Target
    let mocks: MockStack?
    let plan: LoadPlan
    let callers: [TargetUser]
    let callees: [TargetUser]
    /// One installation per caller, registered (an APNs VoIP token) before the calls, whose feed the
    /// run reads: a backend may refuse to serve the feed of an installation it never saw.
    let callerInstallations: [VirtualCallee]
    /// The installation ID of each caller's feed.
    var callerFeeds: [String] { callerInstallations.map(\.installationId) }
    /// The virtual devices of each callee (2 or 3: an iPhone on APNs VoIP, an Android tablet on FCM,
    /// and for every other callee an iPad on APNs production).
    let devices: [[VirtualCallee]]
    let watched: WatchedProcess?
    let progress: @Sendable (LoadProgress) -> Void
    let client: HTTPClient
    let recorder = LoadRecorder()
    /// Each call's history, judged as the call closes.
    let judge: LoadJudge
    let stopFeeds = Mutex(false)
    let nextIndex = Mutex(0)
    /// Set by `interrupt()`: no more calls start; those in flight finish and the run is judged.
    let interrupted = Mutex(false)
    /// Each feed's cursor.
    let cursors = Mutex<[String: String]>([:])

    /// A driver for `target`, calling from `callers` to `callees` (at least one each, different users);
    /// `watched` is the backend's process when it runs on this machine. `progress` is told how the run
    /// goes about twice a second.
    public init(
        target: Target, mocks: MockStack?, plan: LoadPlan, callers: [TargetUser], callees: [TargetUser],
        watched: WatchedProcess? = nil, progress: @escaping @Sendable (LoadProgress) -> Void = { _ in }
    ) throws {
        self.target = target
        self.mocks = mocks
        self.plan = plan
        self.callers = callers
        self.callees = callees
        self.watched = watched
        self.progress = progress
        let prefix = VirtualCallee.freshPrefix("load")
        let environment: VirtualDevice.Environment = target.capabilities.contains(.sandbox) ? .sandbox : .production
        callerInstallations = callers.indices.map {
            VirtualCallee(
                name: "caller", kind: .apnsVoip, environment: environment, installationId: "\(prefix)-a\($0)-caller",
                token: RandomText.hex(bytes: 32))
        }
        devices = callees.indices.map { i in
            var list = VirtualCallee.pair(prefix: "\(prefix)-b\(i)", apnsEnvironment: environment)
            if i % 2 == 0 {
                list.append(
                    VirtualCallee(
                        name: "ipad", kind: .apnsVoip, environment: .production, installationId: "\(prefix)-b\(i)-ipad",
                        token: RandomText.hex(bytes: 32)))
            }
            return list
        }
        client = try target.makeClient()
        let all = devices.flatMap { $0 }
        judge = LoadJudge(
            context: mocks.map { mocks in
                InvariantContext(
                    devices: all.map {
                        InvariantDevice(
                            name: $0.installationId, kind: $0.kind, environment: $0.environment, tokens: [$0.token])
                    },
                    voipTopic: mocks.settings.apnsVoIPTopic, inFlightMarginMs: Self.inFlightMarginMs,
                    providerSecrets: ScenarioEngine.keyLines(mocks))
            },
            installations: Dictionary(
                all.map { ($0.token.lowercased(), $0.installationId) }, uniquingKeysWith: { a, _ in a }),
            inFlightMarginMs: Self.inFlightMarginMs, waitLimitSeconds: plan.waitLimitSeconds)
    }

    // MARK: Running

    /// Runs the plan and judges what happened.
    public func run() async -> LoadResult {
        defer { client.shutdown() }
        let startedMs = Self.wallMs()
        let clockStart = ContinuousClock.now
        let sampler = watched.map { ProcessSampler(process: $0) }
        if let failure = await registerDevices() {
            return LoadResult.setupFailed(failure, target: target, plan: plan, startedAtMs: startedMs)
        }
        for feed in allFeeds { await drain(feed, record: false) }
        // Every push from now on is filed under its call and dropped once the call is judged.
        mocks?.log.divert(to: { [judge] in judge.file($0) })
        defer { mocks?.log.divert(to: nil) }
        sampler?.start()
        var callsEndedAt = ContinuousClock.now
        await withTaskGroup(of: Void.self) { readers in
            for feed in allFeeds { readers.addTask { await self.follow(feed) } }
            readers.addTask { await self.reportProgress(from: clockStart) }
            readers.addTask { await self.judgeAsCallsClose() }
            await driveCalls(from: clockStart)
            callsEndedAt = .now
            await settle()
            stopFeeds.withLock { $0 = true }
            await readers.waitForAll()
        }
        var drained = true
        for feed in allFeeds where !(await drain(feed, record: true)) { drained = false }
        let samples = await sampler?.stop() ?? []
        let callSeconds = Self.seconds(callsEndedAt - clockStart)
        return judgeRun(
            drained: drained, startedAtMs: startedMs, callSeconds: callSeconds,
            totalSeconds: Self.seconds(ContinuousClock.now - clockStart), samples: samples)
    }

    /// Starts calls at the plan's rate (or keeps its concurrency) until its duration or count is reached.
    func driveCalls(from start: ContinuousClock.Instant) async {
        let stopAt = plan.durationSeconds.map { start + .milliseconds(Int64($0 * 1000)) }
        let hardStop = start + .milliseconds(Int64(plan.hardLimitSeconds * 1000))
        @Sendable func mayStart(_ index: Int) -> Bool {
            let now = ContinuousClock.now
            return (plan.calls.map { index < $0 } ?? true) && (stopAt.map { now < $0 } ?? true) && now < hardStop
                && !self.interrupted.withLock { $0 }
        }
        await withTaskGroup(of: Void.self) { group in
            if let concurrency = plan.concurrency {
                for _ in 0..<concurrency {
                    group.addTask {
                        while true {
                            let index = self.nextIndex.withLock { i -> Int in
                                defer { i += 1 }
                                return i
                            }
                            guard mayStart(index) else { return }
                            await self.runCall(index)
                        }
                    }
                }
                return
            }
            let interval = 1 / (plan.rate ?? 4)
            var index = 0
            while mayStart(index) {
                let due = start + .milliseconds(Int64(Double(index) * interval * 1000))
                if due > .now { try? await Task.sleep(until: due, clock: .continuous) }
                // Past the in-flight bound the driver waits: the rate reached then says the backend is behind.
                while inFlight >= plan.maxInFlight && ContinuousClock.now < hardStop {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                guard mayStart(index) else { break }
                let i = index
                group.addTask { await self.runCall(i) }
                index += 1
            }
        }
    }

    /// Stops starting calls (Ctrl-C): the calls in flight finish, and the run is judged as far as it went.
    public func interrupt() {
        let first = interrupted.withLock { was in
            defer { was = true }
            return !was
        }
        if first { recorder.problem("interrupted: no more calls were started") }
    }

    var inFlight: Int { recorder.state.withLock { $0.started - $0.finished } }

    var allFeeds: [(installation: String, user: TargetUser)] {
        var feeds = zip(callerFeeds, callers).map { (installation: $0.0, user: $0.1) }
        for (i, list) in devices.enumerated() {
            for d in list { feeds.append((d.installationId, callees[i])) }
        }
        return feeds
    }

    /// Reports progress until the feeds are told to stop.
    func reportProgress(from start: ContinuousClock.Instant) async {
        while !stopFeeds.withLock({ $0 }) {
            let s = recorder.state.withLock { (started: $0.started, finished: $0.finished, failed: $0.failedCalls) }
            progress(
                LoadProgress(
                    started: s.started, finished: s.finished, failed: s.failed,
                    elapsedSeconds: Self.seconds(ContinuousClock.now - start), plannedCalls: plan.calls,
                    plannedSeconds: plan.durationSeconds))
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Judges the calls that closed, twice a second, until the feeds are told to stop.
    func judgeAsCallsClose() async {
        while !stopFeeds.withLock({ $0 }) {
            judge.judgeClosed()
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Waits until the mocks have been quiet for a second (pushes still in flight arrive), at most 10 s.
    func settle() async {
        guard let log = mocks?.log else { return }
        var last = log.lastSequence
        var quietSince = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline && ContinuousClock.now - quietSince < .seconds(1) {
            try? await Task.sleep(for: .milliseconds(100))
            let now = log.lastSequence
            if now != last {
                last = now
                quietSince = .now
            }
        }
    }

    // MARK: Helpers

    static func wallMs() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// The backend's process, when it runs on this machine, and how reports name it.
public struct WatchedProcess: Sendable, Equatable {
    public var pid: Int32
    /// `reference backend (child process)`, `ringcheck itself (embedded reference in process, with the mocks and the driver)`.
    public var label: String

    /// Creates a value from its parts.
    public init(pid: Int32, label: String) {
        self.pid = pid
        self.label = label
    }
}

/// How far a load run is, for a progress line.
public struct LoadProgress: Sendable, Equatable {
    public var started: Int
    public var finished: Int
    public var failed: Int
    public var elapsedSeconds: Double
    public var plannedCalls: Int?
    public var plannedSeconds: Double?

    /// `12.0 s  calls 48 started, 40 done (2 failed), 8 in flight, 3.3 calls/s`.
    public var line: String {
        var text = String(format: "%.1f s", elapsedSeconds)
        if let plannedSeconds { text += String(format: "/%.0f s", plannedSeconds) }
        text += "  calls \(started)" + (plannedCalls.map { "/\($0)" } ?? "") + " started, \(finished) done"
        if failed > 0 { text += " (\(failed) failed)" }
        text += ", \(started - finished) in flight"
        if elapsedSeconds > 0 { text += String(format: ", %.1f calls/s", Double(finished) / elapsedSeconds) }
        return text
    }
}
