import Conformance
import Foundation
import HTTP
import PushMocks
import Reports
import Synchronization

/// DialStack under load (`LoadWorkload`): each unit is one webhook, signed as DialStack signs it and posted to
/// the target's webhook, in the rotation of `DialStackLoadScript` — wake-ups for users with 1–3 virtual
/// devices each (an iPhone on APNs VoIP, an Android tablet on FCM, an iPad on APNs VoIP production), some
/// delivered again with the same event id, events of other types and badly signed ones. Every push the
/// mocks capture is filed under its webhook by `call_id`, and each webhook is judged once it is over
/// (`DialStackLoadHistory`, the profile's push rules, the latency).
///
/// ```swift
/// let workload = try DialStackLoadWorkload(target: target, mocks: mocks, users: [u1, u2, u3])
/// let result = await LoadDriver(workload: workload, plan: LoadPlan(rate: 5, calls: 40)).run()
/// ```
public final class DialStackLoadWorkload: LoadWorkload {
    let target: Target
    let webhook: WebhookEndpoint
    let mocks: MockStack?
    let users: [TargetUser]
    /// Each user's virtual devices: 1, 2 or 3 by the user's index.
    let devices: [[VirtualCallee]]
    let client: HTTPClient
    let judge: DialStackLoadJudge
    /// How long a wake-up's devices may take to be pushed before its unit goes on (the seed's budget).
    let pushBudget: Duration
    let recorderBox = Mutex<LoadRecorder?>(nil)

    public var profile: String { DialStackProfile.profileName }
    public var unit: String { "webhook" }
    public var targetName: String { target.name }
    public var endpoints: [String] { ["register", "webhook"] }

    /// Webhooks for `users` (at least one) of `target`, which must take webhooks (`Target.webhook`), whose pushes
    /// `mocks` capture (nil: a target whose pushes go elsewhere: answers alone are judged). A webhook is judged
    /// `lingerSeconds` after its unit ended, so that a second push still has time to arrive.
    public init(
        target: Target, mocks: MockStack?, users: [TargetUser], pushBudgetSeconds: Double = 30,
        lingerSeconds: Double = 3
    ) throws {
        guard let webhook = target.webhook else {
            throw LoadSetupError(
                message: "the target takes no DialStack webhook: a target file's webhook: {path, secret} says where")
        }
        guard !users.isEmpty else { throw LoadSetupError(message: "load --profile dialstack needs a user") }
        self.target = target
        self.webhook = webhook
        self.mocks = mocks
        self.users = users
        pushBudget = .milliseconds(Int64(pushBudgetSeconds * 1000))
        let environment: VirtualDevice.Environment = target.capabilities.contains(.sandbox) ? .sandbox : .production
        let prefix = VirtualCallee.freshPrefix("load")
        devices = users.enumerated().map { i, user in
            var list = VirtualCallee.pair(prefix: "\(prefix)-u\(i)", apnsEnvironment: environment)
            list.append(
                VirtualCallee(
                    name: "ipad", kind: .apnsVoip, environment: .production, installationId: "\(prefix)-u\(i)-ipad",
                    token: RandomText.hex(bytes: 32)))
            return Array(list.prefix(i % 3 + 1)).map { d in
                var named = d
                named.name = "\(user.userId)'s \(d.name)"
                return named
            }
        }
        var owners: [String: (device: String, user: String)] = [:]
        for (i, list) in devices.enumerated() {
            for d in list { owners[d.token.lowercased()] = (d.name, users[i].userId) }
        }
        judge = DialStackLoadJudge(
            owners: owners, levels: try RequirementCatalogue.embeddedLevels(of: DialStackProfile()),
            voipTopic: mocks?.settings.apnsVoIPTopic ?? "",
            watching: mocks != nil, lingerMs: Int64(lingerSeconds * 1000))
        client = try target.makeLoadClient()
    }

    var recorder: LoadRecorder { recorderBox.withLock { $0 } ?? LoadRecorder() }

    // MARK: LoadWorkload

    public func prepare(_ recorder: LoadRecorder) async -> String? {
        recorderBox.withLock { $0 = recorder }
        if let failure = await registerDevices() { return failure }
        // Every push from now on is filed under its webhook and dropped once the webhook is judged.
        mocks?.log.divert(to: { [judge] in judge.file($0) })
        return nil
    }

    public func run(_ index: Int, _ recorder: LoadRecorder) async { await runWebhook(index) }

    public func follow(_ recorder: LoadRecorder, until stopped: @escaping @Sendable () -> Bool) async {
        while !stopped() {
            judge.judgeClosed()
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    public func settle() async { await mocks?.log.waitUntilQuiet() }

    public func finish(_ recorder: LoadRecorder) async -> LoadFindings {
        mocks?.log.divert(to: nil)
        judge.judgeClosed(all: true)
        let f = judge.findings
        for note in f.notes { recorder.problem(note) }
        return LoadFindings(
            history: f.history, invariants: f.invariants, pushes: f.pushes, invitations: f.wakeUps,
            pushLatency: [DialStackLoadJudge.apnsFigure, DialStackLoadJudge.fcmFigure].compactMap {
                LatencyFigures(name: $0, histogram: f.latency[$0] ?? LatencyHistogram())
            })
    }

    public func shutdown() {
        mocks?.log.divert(to: nil)
        client.shutdown()
    }
}
