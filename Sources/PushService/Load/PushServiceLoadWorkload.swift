import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Reports
import Synchronization

/// A push service under load (`LoadWorkload`): ringcheck plays the app server and its devices. Six users hold 1
/// to 5 devices each (iOS with a VoIP token in the sandbox, Android, iOS without a VoIP token, iOS with a VoIP
/// token in production, Android, in turn), registered before the first unit; some tokens carry fault plans (an
/// Android token the provider always refuses with 503, a VoIP token whose first push of each call is refused
/// with 503 and a retry in 20 s, long after the call's ring). Each unit is a normal notification or a call
/// pair (`PushServiceLoadScript`) to one user. Every push the mocks capture is filed under its unit by its
/// marker; once a unit is sent, its notifications are read back (`GET /notifications/{id}`) until they settle, and
/// the unit is judged and dropped (`PushServiceLoadJudge`: `PushServiceLoadHistory`, the profile's push rules), so
/// a long run's memory stays flat.
///
/// ```swift
/// let workload = try PushServiceLoadWorkload(target: target, mocks: mocks)
/// let result = await LoadDriver(workload: workload, plan: LoadPlan(rate: 4, calls: 20)).run()
/// ```
public final class PushServiceLoadWorkload: LoadWorkload {
    let target: Target
    let app: ServiceApp
    let mocks: MockStack?
    /// Each user's external ID and devices.
    let users: [(externalId: String, devices: [PushServiceDevice])]
    let client: HTTPClient
    let levels: [String: RequirementLevel]
    /// The devices whose token the provider always refuses: excused from being reached.
    let faulted: Set<String>
    /// The VoIP tokens whose first push of each call is refused with a retry long after the ring.
    let lateFaultTokens: Set<String>
    let judge: PushServiceLoadJudge
    let recorderBox = Mutex<LoadRecorder?>(nil)
    let settleLimit: Duration

    public var profile: String { PushServiceProfile.profileName }
    public var unit: String { "notification" }
    public var targetName: String { target.name }
    public var endpoints: [String] { ["register", "notify", "get"] }

    /// Notifications and calls to six fresh users' devices at `target`'s `serviceApp`, whose pushes `mocks`
    /// capture; each notification is read back until it settles, at most `settleSeconds` after it was sent, and its
    /// unit judged `lingerSeconds` after its last notification settled (a second push still has time to arrive).
    public init(target: Target, mocks: MockStack?, settleSeconds: Double = 60, lingerSeconds: Double = 1) throws {
        guard let app = target.serviceApp else {
            throw LoadSetupError(message: "the target has no serviceApp: a target file's serviceApp: {appId, apiKey}")
        }
        self.target = target
        self.app = app
        self.mocks = mocks
        settleLimit = .milliseconds(Int64(settleSeconds * 1000))
        let prefix = VirtualCallee.freshPrefix("load")
        var faulted: Set<String> = []
        var late: Set<String> = []
        users = (0..<6).map { i in
            let user = "\(prefix)-u\(i)"
            let devices = (0..<(i % 5 + 1)).map { j -> PushServiceDevice in
                let name = "\(user) " + ["iphone", "pixel", "ipad-no-voip", "iphone-prod", "tablet"][j]
                switch j {
                case 1, 4:
                    return PushServiceDevice(
                        name: name, user: user, platform: .android, token: RandomText.fcmToken(), voipToken: nil,
                        sandbox: false)
                default:
                    return PushServiceDevice(
                        name: name, user: user, platform: .ios, token: RandomText.hex(bytes: 32),
                        voipToken: j == 2 ? nil : RandomText.hex(bytes: 32), sandbox: j == 0)
                }
            }
            // User 2's pixel is always refused; user 3's iphone has its first call push of each call delayed.
            if i == 2, let pixel = devices.first(where: { $0.platform == .android }) { faulted.insert(pixel.name) }
            if i == 3, let voip = devices.first?.voipToken { late.insert(voip) }
            return (user, devices)
        }
        self.faulted = faulted
        lateFaultTokens = late
        levels = try RequirementCatalogue.embeddedLevels(of: PushServiceProfile())
        judge = PushServiceLoadJudge(
            devices: users.flatMap(\.devices), faulted: faulted, levels: levels, bundleId: target.appId,
            voipTopic: mocks?.settings.apnsVoIPTopic ?? "", lingerMs: Int64(lingerSeconds * 1000))
        client = try target.makeLoadClient()
    }

    var recorder: LoadRecorder { recorderBox.withLock { $0 } ?? LoadRecorder() }
    var allDevices: [PushServiceDevice] { users.flatMap(\.devices) }

    // MARK: LoadWorkload

    public func prepare(_ recorder: LoadRecorder) async -> String? {
        recorderBox.withLock { $0 = recorder }
        if let failure = await registerDevices() { return failure }
        for d in allDevices where faulted.contains(d.name) {
            _ = try? mocks?.faults.install(
                FaultPlan(mock: .fcm, deviceToken: d.token, respond: FaultResponse(status: 503)))
        }
        // Every push from now on is filed under its unit and dropped once the unit is judged.
        mocks?.log.divert(to: { [judge] in judge.file($0) })
        return nil
    }

    public func run(_ index: Int, _ recorder: LoadRecorder) async {
        let script = PushServiceLoadScript.script(for: index)
        recorder.unitStarted(kind: script.rawValue)
        let user = users[index % users.count]
        let unit = String(index)
        judge.open(unit)
        defer { judge.sent(unit) }
        var failure: String?
        switch script {
        case .notification:
            let body: JSONValue = [
                "headings": ["en": "ringcheck load"], "contents": ["en": .string("notification \(index)")],
            ]
            if await notify(body, to: user, index: index, part: "n", incoming: nil, unit: unit) == nil {
                failure = "notification \(index): no answer"
            }
        case .call:
            let id = RandomText.uuid()
            for token in lateFaultTokens where user.devices.contains(where: { $0.voipToken == token }) {
                _ = try? mocks?.faults.install(
                    FaultPlan(
                        mock: .apns, deviceToken: token, times: 1, respond: FaultResponse(status: 503), retryAfter: 20))
            }
            let call: JSONValue = [
                "id": .string(id), "caller_name": "ringcheck", "handle": "+14155550100", "is_video": false,
                "timeout": .int(Int64(PushServiceLoadScript.timeoutSeconds)),
            ]
            let incoming = await notify(
                ["call": call.setting("action", to: "incoming")], to: user, index: index, part: "i", incoming: nil,
                unit: unit)
            try? await Task.sleep(for: .milliseconds(PushServiceLoadScript.ringMs(index)))
            let ended = await notify(
                ["call": call.setting("action", to: "ended")], to: user, index: index, part: "e",
                incoming: incoming?.marker, unit: unit)
            if incoming == nil || ended == nil { failure = "call \(id): no answer" }
        }
        recorder.unitFinished(failure: failure)
    }

    /// Reads back the notifications of the units sent (16 readers, each notification every 250 ms until it
    /// settles) and judges the units settled.
    public func follow(_ recorder: LoadRecorder, until stopped: @escaping @Sendable () -> Bool) async {
        await withDiscardingTaskGroup { group in
            for _ in 0..<16 {
                group.addTask {
                    while !stopped() {
                        if let d = self.judge.nextToRead() {
                            self.judge.read(d.key, d.index, await self.readCounts(d.record))
                        } else {
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
            }
            group.addTask {
                while !stopped() {
                    self.judge.judgeSettled()
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
        }
    }

    /// Waits until every unit was judged (each notification settled or passed its settle limit), then for the mocks
    /// to be quiet.
    public func settle() async {
        let deadline = ContinuousClock.now + settleLimit + .seconds(5)
        while !judge.idle && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(100)) }
        await mocks?.log.waitUntilQuiet()
    }

    public func finish(_ recorder: LoadRecorder) async -> LoadFindings {
        mocks?.log.divert(to: nil)
        judge.judgeSettled(all: true)
        let f = judge.findings
        var figures = f.lag.keys.sorted().compactMap { LatencyFigures(name: $0, histogram: f.lag[$0]!) }
        if let settle = LatencyFigures(name: "time to settle", histogram: f.settle) { figures.append(settle) }
        return LoadFindings(
            history: f.history, invariants: f.invariants, pushes: f.pushes, invitations: f.invitations,
            pushLatency: figures)
    }

    public func shutdown() {
        mocks?.log.divert(to: nil)
        client.shutdown()
    }
}
