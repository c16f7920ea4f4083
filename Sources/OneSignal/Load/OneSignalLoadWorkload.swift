import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Reports
import Synchronization

/// A OneSignal kit under load (`LoadWorkload`): ringcheck plays the app calling the kit's helpers and plays
/// OneSignal. Each unit is one kit operation through the target's mapped route (`OneSignalLoadScript`: a push to a
/// user, a VoIP push, a broadcast, a push to a user with no device, a push through the unconfigured instance), to a
/// fresh External ID subscribed on the mock OneSignal for it (unsubscribed once judged). Every request the mock
/// captures is attributed to its operation by content and each operation is judged once it is over
/// (`OneSignalLoadJudge`): one request, the right app and key, targeting, content and options as given, and a
/// `delivered` that says what OneSignal answered.
///
/// ```swift
/// let workload = try OneSignalLoadWorkload(target: target, mocks: mocks)
/// let result = await LoadDriver(workload: workload, plan: LoadPlan(rate: 5, calls: 20)).run()
/// ```
public final class OneSignalLoadWorkload: LoadWorkload {
    let target: Target
    let mocks: MockStack
    let mock: OneSignalMock
    let client: HTTPClient
    let judge: OneSignalLoadJudge
    /// The External ID every broadcast reaches (two devices in the standard app), and the run's marker prefix.
    let broadcastAudience: String
    let prefix: String
    let recorderBox = Mutex<LoadRecorder?>(nil)

    public var profile: String { OneSignalProfile.profileName }
    public var unit: String { "operation" }
    public var targetName: String { target.name }
    public var endpoints: [String] { OneSignalLoadScript.allCases.map(\.rawValue) }

    /// Kit operations at `target`, which sends to the OneSignal mock of `mocks`; an operation is judged
    /// `lingerSeconds` after its answer, so that a second request still has time to arrive.
    public init(target: Target, mocks: MockStack, lingerSeconds: Double = 2) throws {
        guard let mock = mocks.providers.oneSignal else {
            throw LoadSetupError(
                message: "load --profile onesignal needs ringcheck's mock OneSignal, which is not running")
        }
        self.target = target
        self.mocks = mocks
        self.mock = mock
        prefix = VirtualCallee.freshPrefix("load")
        broadcastAudience = RandomText.uuid()
        let levels = try RequirementCatalogue.embeddedLevels(of: OneSignalProfile())
        judge = OneSignalLoadJudge(
            standard: mock.standardApp, voip: mock.voipApp, levels: levels, lingerMs: Int64(lingerSeconds * 1000),
            judged: { [mock] e in
                guard let id = e.operation.externalId else { return }
                let app = e.operation.kind == .voipPush ? mock.voipApp : mock.standardApp
                mock.audience.unsubscribe(externalId: id, appId: app.appID)
            })
        client = try target.makeLoadClient()
    }

    var recorder: LoadRecorder { recorderBox.withLock { $0 } ?? LoadRecorder() }

    // MARK: LoadWorkload

    public func prepare(_ recorder: LoadRecorder) async -> String? {
        recorderBox.withLock { $0 = recorder }
        mock.audience.subscribe(externalId: broadcastAudience, appId: mock.standardApp.appID, devices: 2)
        // Every OneSignal request from now on is filed under its operation and dropped once that one is judged.
        mocks.log.divert(to: { [judge] in judge.file($0) })
        return nil
    }

    public func run(_ index: Int, _ recorder: LoadRecorder) async {
        let script = OneSignalLoadScript.script(for: index, unconfigured: target.unconfiguredBaseURL != nil)
        recorder.unitStarted(kind: script.rawValue)
        let failure = await perform(script, index)
        recorder.unitFinished(failure: failure)
    }

    public func follow(_ recorder: LoadRecorder, until stopped: @escaping @Sendable () -> Bool) async {
        while !stopped() {
            judge.judgeClosed()
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    public func settle() async {
        await mocks.log.waitUntilQuiet()
        // The last operations' linger: a second request still has time to arrive.
        try? await Task.sleep(for: .milliseconds(judge.lingerMs))
    }

    public func finish(_ recorder: LoadRecorder) async -> LoadFindings {
        mocks.log.divert(to: nil)
        judge.judgeClosed(all: true)
        mock.audience.unsubscribe(externalId: broadcastAudience, appId: mock.standardApp.appID)
        let f = judge.findings
        for note in f.notes { recorder.problem(note) }
        return LoadFindings(
            history: f.history, pushes: f.requests, invitations: f.delivered,
            pushLatency: [LatencyFigures(name: "kit → OneSignal request", histogram: f.latency)].compactMap { $0 })
    }

    public func shutdown() {
        mocks.log.divert(to: nil)
        client.shutdown()
    }
}
