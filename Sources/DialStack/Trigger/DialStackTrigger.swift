import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Reports

/// `ringcheck trigger dialstack`: plays DialStack for one exchange with a running backend. Registers the user's
/// virtual devices (per the plan), posts one signed event (the `webhook:` step's event and signature), shows the
/// answer and every push the mocks receive for it, delivers it again when asked, and judges the whole exchange
/// by the profile's rules (the answers, `DialStackInvariants` over the pushes, the wake-up of every device, the
/// latency).
///
/// ```swift
/// let trigger = try DialStackTrigger(plan: plan, mocks: mocks) { print($0.message) }
/// let result = await trigger.run()
/// ```
public actor DialStackTrigger: ProfileTrigger {
    let plan: DialStackTriggerPlan
    /// ringcheck's mocks, when the backend pushes to them.
    public let mocks: MockStack?
    public let emit: @Sendable (CallTimelineEntry) -> Void
    public let client: HTTPClient
    public let startedWallMs = Int64(Date().timeIntervalSince1970 * 1000)

    /// The virtual devices registered, with their user.
    var devices: [(device: VirtualCallee, user: String, bearer: String)] = []
    /// Set once the devices were removed (at the end, or on Ctrl-C): no device registers after it.
    var cleanedUp = false
    var deliveries: [DialStackDelivery] = []
    public var violations: [TriggerResult.Violation] = []
    /// The profile's requirement levels (its embedded catalogue's): a SHOULD not met is a warning.
    public let levels: [String: RequirementLevel]
    /// The last capture put on the timeline.
    public var shown = 0
    var event: JSONValue = .null
    var callId = ""

    /// A trigger following `plan`; `emit` receives the timeline.
    public init(
        plan: DialStackTriggerPlan, mocks: MockStack?, emit: @escaping @Sendable (CallTimelineEntry) -> Void
    ) throws {
        self.plan = plan
        self.mocks = mocks
        self.emit = emit
        levels = try RequirementCatalogue.embeddedLevels(of: DialStackProfile())
        client = try Target.makeClient(for: plan.webhookURL, caFile: nil, insecureSkipVerify: false)
    }

    /// Removes the virtual devices (unless the plan keeps them), once.
    public func cleanUp() async {
        cleanedUp = true
        if !plan.keepDevices { await removeDevices() }
    }

    public func exchange() async -> TriggerResult {
        event = DialStackEvent.make(type: plan.eventType, userId: plan.userId, omit: [])
        event = Self.withNumbers(event, from: plan.fromNumber, to: plan.toNumber)
        callId = event.value(atPath: "data.call_id")?.stringValue ?? ""
        if let failure = await registerDevices() { return result(.inconclusive, failure) }
        shown = mocks?.log.lastSequence ?? 0
        let bookmark = shown
        let rule = plan.answerRule
        guard let status = await deliver(plan.signature, what: "") else {
            return result(.inconclusive, "the backend at \(plan.webhookURL) could not be reached")
        }
        if !rule.ok(status) {
            fail(
                rule.requirement,
                "the \(plan.eventType) signed \(plan.signature.name) was answered \(status), expected \(rule.expected)")
        }
        let ownDevices = devices.filter { $0.user == plan.userId }.map(\.device)
        if plan.wakes && !ownDevices.isEmpty {
            await watch(for: plan.pushBudget) { [self] in await self.unwoken(ownDevices, after: bookmark).isEmpty }
        }
        for n in 0..<plan.redeliveries {
            guard let again = await deliver(.valid, what: " again (\(n + 1) of \(plan.redeliveries))") else {
                return result(.inconclusive, "the backend at \(plan.webhookURL) stopped answering")
            }
            if !(200..<300).contains(again) {
                fail(DialStackRequirement.redelivery, "redelivery \(n + 1) was answered \(again), expected 2xx")
            }
        }
        await watch(for: plan.settle) { false }
        return judge(after: bookmark, ownDevices: ownDevices)
    }

    // MARK: Judging

    func judge(after bookmark: Int, ownDevices: [VirtualCallee]) -> TriggerResult {
        let captures = relevant(after: bookmark)
        let pushes = captures.map { c -> DialStackJudgedPush in
            let owner = devices.first { Self.capture(c, isFor: $0.device) }
            return DialStackJudgedPush(
                capture: c, device: owner?.device.name ?? Self.shortTarget(c), user: owner?.user ?? plan.userId)
        }
        let (violations, notes) = DialStackInvariants.judge(
            pushes, deliveries: deliveries, voipTopic: mocks?.settings.apnsVoIPTopic ?? "")
        for v in violations { fail(v.requirement, "push #\(v.sequence.map(String.init) ?? "?") \(v.message)") }
        for note in notes { emit(entry(.note, note)) }
        let forCall = captures.filter { (DialStackPush($0)?.carries(callId) ?? false) && $0.outcome.isAccepted }
        if !plan.signature.isValid && !forCall.isEmpty {
            fail(
                plan.answerRule.requirement,
                "\(forCall.count) push\(forCall.count == 1 ? "" : "es") for an event whose \(plan.signature.name) signature must be refused"
            )
        }
        for sample in DialStackLatency(pushes, deliveries: deliveries).tooSlow {
            fail(
                DialStackRequirement.latency,
                "\(sample.device) woken \(sample.milliseconds) ms after the webhook (bound \(DialStackTiming.latencyBoundMs) ms)"
            )
        }
        let reachedMocks = (mocks?.log.captures { $0.sequence > bookmark && DialStackPush($0) != nil }.count ?? 0) > 0
        if plan.wakes && !ownDevices.isEmpty {
            let missing = unwoken(ownDevices, after: bookmark)
            if !reachedMocks {
                return result(
                    .inconclusive,
                    "no push reached ringcheck's mocks: the backend pushes elsewhere (the real APNs/FCM?) or to nobody; only the answer was judged",
                    pushes: 0)
            }
            for d in missing {
                fail(
                    "DIALSTACK-WAKE-1",
                    "\(d.name) of \(plan.userId) got no push within \(Self.seconds(plan.pushBudget)) s")
            }
        } else if !reachedMocks && plan.wakes {
            emit(
                entry(
                    .note,
                    "no push reached ringcheck's mocks (no virtual device registered): only the answer was judged"))
        }
        return verdict(clean: "every rule of the dialstack profile held", pushes: captures.count)
    }

    /// The devices of `own` without an accepted push since `bookmark` (they were registered for this exchange, so
    /// any push to them answers its event, with or without the right `call_id`: DIALSTACK-PUSH-1 judges that).
    func unwoken(_ own: [VirtualCallee], after bookmark: Int) -> [VirtualCallee] {
        let got =
            mocks?.log.captures { $0.sequence > bookmark && $0.outcome.isAccepted && DialStackPush($0) != nil }
            ?? []
        return own.filter { d in !got.contains { Self.capture($0, isFor: d) } }
    }

    /// The pushes since `bookmark` for the event, or to a virtual device.
    public func relevant(after bookmark: Int) -> [Capture] {
        let id = callId
        let own = devices.map(\.device)
        return mocks?.log.captures { c in
            guard c.sequence > bookmark, let push = DialStackPush(c) else { return false }
            return push.carries(id) || own.contains { Self.capture(c, isFor: $0) }
        } ?? []
    }

    public func result(_ outcome: TriggerResult.Outcome, _ detail: String, pushes: Int = 0) -> TriggerResult {
        let eventId = event["id"]?.stringValue ?? ""
        return TriggerResult(
            outcome: outcome, detail: detail, facts: [("eventId", .string(eventId)), ("callId", .string(callId))],
            factsLine: "Event \(eventId), call \(callId)", answers: deliveries.map(\.status), pushes: pushes,
            violations: violations)
    }

    /// `data.from_number` / `data.to_number` replaced when given.
    static func withNumbers(_ event: JSONValue, from: String?, to: String?) -> JSONValue {
        guard from != nil || to != nil, var data = event["data"]?.objectValue else { return event }
        for i in data.indices {
            if data[i].key == "from_number", let from { data[i].value = .string(from) }
            if data[i].key == "to_number", let to { data[i].value = .string(to) }
        }
        return event.setting("data", to: .object(data))
    }
}
