import Conformance
import HTTP
import JSON
import PushMocks
import Synchronization

/// Callx under load (`LoadWorkload`): each unit is a call from a caller to a callee's 2-3 virtual devices
/// played by one of the scripts (`LoadScript`: racing answers, cancels, declines, expiries, hang-ups, and
/// retried creates and answers with the same operationId); every caller installation and device reads
/// its event feed while the calls run; every push the mocks capture is filed under its call; and each
/// call's history is judged as it closes (`LoadJudge`: `HistoryChecker` and the profile's invariants).
///
/// ```swift
/// let workload = try CallxLoadWorkload(
///     target: target, mocks: mocks, settings: CallxLoadSettings(), callers: [a], callees: [b])
/// let result = await LoadDriver(workload: workload, plan: plan).run()
/// ```
public final class CallxLoadWorkload: LoadWorkload {
    let target: Target
    let mocks: MockStack?
    let settings: CallxLoadSettings
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
    let client: HTTPClient
    /// Each call's history, judged as the call closes.
    let judge: LoadJudge
    /// Each feed's cursor.
    let cursors = Mutex<[String: String]>([:])
    /// The driver's recorder, known once `prepare` is called.
    let recorderBox = Mutex<LoadRecorder?>(nil)

    public var profile: String { "callx" }
    public var unit: String { "call" }
    public var targetName: String { target.name }
    public var endpoints: [String] { LoadOperation.Kind.allCases.map(\.rawValue) }

    /// Calls from `callers` to `callees` (at least one each, different users) of `target`, whose pushes
    /// `mocks` capture (nil: a target whose pushes go elsewhere).
    public init(
        target: Target, mocks: MockStack?, settings: CallxLoadSettings, callers: [TargetUser], callees: [TargetUser]
    ) throws {
        self.target = target
        self.mocks = mocks
        self.settings = settings
        self.callers = callers
        self.callees = callees
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
        client = try target.makeLoadClient()
        let all = devices.flatMap { $0 }
        let levels = try RequirementCatalogue.embeddedLevels(of: CallxProfile())
        judge = LoadJudge(
            context: mocks.map { mocks in
                InvariantContext(
                    devices: all.map {
                        InvariantDevice(
                            name: $0.installationId, kind: $0.kind, environment: $0.environment, tokens: [$0.token])
                    },
                    voipTopic: mocks.settings.apnsVoIPTopic, inFlightMarginMs: Self.inFlightMarginMs,
                    providerSecrets: ScenarioEngine.keyLines(mocks), levels: InvariantLevels(levels))
            },
            installations: Dictionary(
                all.map { ($0.token.lowercased(), $0.installationId) }, uniquingKeysWith: { a, _ in a }),
            levels: levels, inFlightMarginMs: Self.inFlightMarginMs, waitLimitSeconds: settings.waitLimitSeconds)
    }

    var recorder: LoadRecorder { recorderBox.withLock { $0 } ?? LoadRecorder() }

    // MARK: LoadWorkload

    public func prepare(_ recorder: LoadRecorder) async -> String? {
        recorderBox.withLock { $0 = recorder }
        if let failure = await registerDevices() { return failure }
        for feed in allFeeds { await drain(feed, record: false) }
        // Every push from now on is filed under its call and dropped once the call is judged.
        mocks?.log.divert(to: { [judge] in judge.file($0) })
        return nil
    }

    public func run(_ index: Int, _ recorder: LoadRecorder) async { await runCall(index) }

    public func follow(_ recorder: LoadRecorder, until stopped: @escaping @Sendable () -> Bool) async {
        await withTaskGroup(of: Void.self) { readers in
            for feed in allFeeds { readers.addTask { await self.follow(feed, until: stopped) } }
            // Judges the calls that closed, twice a second.
            readers.addTask {
                while !stopped() {
                    self.judge.judgeClosed()
                    try? await Task.sleep(for: .milliseconds(500))
                }
            }
        }
    }

    /// Waits until the mocks have been quiet for a second (pushes still in flight arrive), at most 10 s.
    public func settle() async { await mocks?.log.waitUntilQuiet() }

    public func finish(_ recorder: LoadRecorder) async -> LoadFindings {
        var drained = true
        for feed in allFeeds where !(await drain(feed, record: true)) { drained = false }
        mocks?.log.divert(to: nil)
        return findings(drained: drained)
    }

    public func shutdown() {
        mocks?.log.divert(to: nil)
        client.shutdown()
    }

    var allFeeds: [(installation: String, user: TargetUser)] {
        var feeds = zip(callerFeeds, callers).map { (installation: $0.0, user: $0.1) }
        for (i, list) in devices.enumerated() {
            for d in list { feeds.append((d.installationId, callees[i])) }
        }
        return feeds
    }

    /// How long an invitation's send may begin after the driver knew the call stopped ringing.
    static var inFlightMarginMs: Int64 { 1000 }
}
