import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Reports

/// `ringcheck trigger push-service`: plays the app server and its users' apps for one exchange with a running push
/// service. Registers a virtual phone (iOS, sandbox, with a VoIP token) and tablet (Android) for the plan's external
/// ID, sends one call (`incoming`, then `ended` with the same id) or one notification, shows every push the mocks
/// receive for it, reads the delivery counts back (`GET /notifications/{id}`), and judges the whole exchange by the
/// profile's rules (`PushServiceInvariants` over the pushes, every device reached, the counts against the mocks).
///
/// ```swift
/// let trigger = try PushServiceTrigger(plan: plan, mocks: mocks) { print($0.message) }
/// let result = await trigger.run()
/// ```
public actor PushServiceTrigger: ProfileTrigger {
    typealias R = PushServiceRequirement
    typealias N = PushServiceNotification

    let plan: PushServiceTriggerPlan
    public let mocks: MockStack?
    public let emit: @Sendable (CallTimelineEntry) -> Void
    public let client: HTTPClient
    public let startedWallMs = Int64(Date().timeIntervalSince1970 * 1000)
    public var violations: [TriggerResult.Violation] = []
    /// The profile's requirement levels (its embedded catalogue's): a SHOULD not met is a warning.
    public let levels: [String: RequirementLevel]
    public var shown = 0

    /// The virtual devices registered (with the service's device ID).
    var devices: [PushServiceDevice] = []
    /// Set once the devices were removed (at the end, or on Ctrl-C): no device registers after it.
    var cleanedUp = false
    /// The requests sent, in order (each with its marker, answer and id).
    var notifications: [PushServiceNotification] = []
    /// The statuses of every request of the exchange (the notifications, then the count reads).
    var answers: [Int?] = []
    /// The marker prefix of this trigger's requests (`<prefix>-n1`, `-n2`).
    let tag = "ringcheck-trigger-" + RandomText.hex(bytes: 6)

    /// A trigger following `plan`; `emit` receives the timeline.
    public init(
        plan: PushServiceTriggerPlan, mocks: MockStack?, emit: @escaping @Sendable (CallTimelineEntry) -> Void
    ) throws {
        self.plan = plan
        self.mocks = mocks
        self.emit = emit
        levels = try RequirementCatalogue.embeddedLevels(of: PushServiceProfile())
        client = try Target.makeClient(for: plan.baseURL, caFile: nil, insecureSkipVerify: false)
    }

    /// Removes the virtual devices (unless the plan keeps them), once.
    public func cleanUp() async {
        cleanedUp = true
        if !plan.keepDevices { await removeDevices() }
    }

    public func exchange() async -> TriggerResult {
        if let failure = await registerDevices() { return result(.inconclusive, failure, pushes: 0) }
        shown = mocks?.log.lastSequence ?? 0
        let bookmark = shown
        var callId = plan.callId
        switch await notify(ended: false, callId: callId) {
        case .unanswered(let why): return result(.inconclusive, why, pushes: 0)
        case .sent: break
        }
        await watch(for: plan.budget) { [self] in await self.unreached(self.notifications.count - 1).isEmpty }
        if plan.kind == .call, plan.endAfter != nil, notifications.last?.accepted != true {
            emit(entry(.note, "the incoming call was not accepted: its ended is not sent"))
        } else if plan.kind == .call, let endAfter = plan.endAfter {
            await watch(for: endAfter) { false }
            if callId.isEmpty {
                // The service generated the call's id: `ended` names the one its pushes carried.
                callId = relevant(after: bookmark).lazy.compactMap { PushServicePush($0)?.callId }.first ?? ""
            }
            if callId.isEmpty {
                emit(entry(.note, "no push carried the generated call_id: `ended` is not sent"))
            } else {
                switch await notify(ended: true, callId: callId) {
                case .unanswered(let why): return result(.inconclusive, why, pushes: 0)
                case .sent: break
                }
                await watch(for: plan.budget) { [self] in await self.unreached(self.notifications.count - 1).isEmpty }
            }
        }
        await watch(for: plan.settle) { false }
        for index in notifications.indices where notifications[index].id != nil {
            guard await readCounts(index) else {
                return result(.inconclusive, "the service at \(plan.baseURL) stopped answering", pushes: 0)
            }
        }
        return judge(after: bookmark)
    }

    // MARK: Judging

    func judge(after bookmark: Int) -> TriggerResult {
        let captures = relevant(after: bookmark)
        let judged = captures.compactMap { c in device(of: c).map { PushServiceJudgedPush(capture: c, device: $0) } }
        for v in PushServiceInvariants.check(
            judged, notifications: notifications, bundleId: mocks?.settings.apnsBundleID ?? "",
            voipTopic: mocks?.settings.apnsVoIPTopic ?? "")
        {
            fail(
                v.requirement,
                "push #\(v.sequence.map(String.init) ?? "?") \(v.message)")
        }
        let reachedMocks = !captures.isEmpty
        let due = notifications.indices.contains { !dueDevices($0).isEmpty }
        if due && !reachedMocks {
            return result(
                .inconclusive,
                "no push reached ringcheck's mocks: the service pushes elsewhere (the real APNs/FCM?) or to nobody; only the answers and counts were judged",
                pushes: 0)
        }
        for index in notifications.indices {
            let n = notifications[index]
            for d in unreached(index) {
                let (requirement, what) =
                    n.action == "ended"
                    ? (R.endedSameId, "the call's ended (its incoming reached it)") : (R.reachEvery, describe(n))
                fail(
                    requirement,
                    "\(d.name) of \(plan.externalId) got no push for \(what) within \(Self.seconds(plan.budget)) s")
            }
        }
        if devices.isEmpty && !reachedMocks {
            emit(
                entry(
                    .note,
                    "no push reached ringcheck's mocks (no virtual device registered): the answers and counts were judged"
                ))
        }
        return verdict(clean: "every rule of the push-service profile held", pushes: captures.count)
    }

    /// The devices the `index`-th request must reach: the virtual devices, but for a call not an iPhone without a
    /// VoIP token (PUSHSVC-CALL-6), and for `ended` only those its `incoming` reached (PUSHSVC-CALL-4).
    func dueDevices(_ index: Int) -> [PushServiceDevice] {
        guard notifications.indices.contains(index), notifications[index].accepted else { return [] }
        let n = notifications[index]
        var due = devices.filter { !(n.isCall && $0.platform == .ios && $0.voipToken == nil) }
        if n.action == "ended", let incoming = notifications.first(where: { $0.action == "incoming" }) {
            due = due.filter { d in accepted(d, incoming.marker) }
        }
        return due
    }

    /// The due devices of the `index`-th request without an accepted push for it yet.
    func unreached(_ index: Int) -> [PushServiceDevice] {
        guard notifications.indices.contains(index) else { return [] }
        let marker = notifications[index].marker
        return dueDevices(index).filter { !accepted($0, marker) }
    }

    func accepted(_ d: PushServiceDevice, _ marker: String) -> Bool {
        let tokens = Set(d.tokens.map { $0.lowercased() })
        return mocks?.log.captures { c in
            c.outcome.isAccepted && PushServicePush(c)?.marker == marker
                && PushServiceCounts.token(of: c).map { tokens.contains($0.lowercased()) } == true
        }.isEmpty == false
    }

    /// The virtual device a push went to.
    func device(of c: Capture) -> PushServiceDevice? {
        guard let token = PushServiceCounts.token(of: c)?.lowercased() else { return nil }
        return devices.first { $0.tokens.contains { $0.lowercased() == token } }
    }

    /// The pushes since `bookmark` that answer one of the trigger's requests, or went to a virtual device.
    public func relevant(after bookmark: Int) -> [Capture] {
        let wanted = arrivals()
        return mocks?.log.captures { $0.sequence > bookmark && wanted($0) } ?? []
    }

    public func arrivals() -> @Sendable (Capture) -> Bool {
        let tag = self.tag
        let tokens = Set(devices.flatMap(\.tokens).map { $0.lowercased() })
        return { c in
            guard let p = PushServicePush(c) else { return false }
            if let marker = p.marker, marker.hasPrefix(tag + "-") { return true }
            return PushServiceCounts.token(of: c).map { tokens.contains($0.lowercased()) } ?? false
        }
    }

    public func describe(_ c: Capture) -> String {
        let what = PushServicePush(c)?.view.summary.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "push"
        return pushLine(c, what: what, device: device(of: c)?.name ?? Self.shortTarget(c))
    }

    public func fields(_ c: Capture) -> [(key: String, value: JSONValue)] {
        let p = PushServicePush(c)
        return [
            ("sequence", .int(c.sequence)), ("provider", .string(c.mock.rawValue)),
            ("device", .string(device(of: c)?.name ?? Self.shortTarget(c))), ("accepted", .bool(c.outcome.isAccepted)),
            ("status", .int(c.response.status)), ("type", p?.type.map { .string($0) } ?? .string("notification")),
            ("callId", p?.callId.map { .string($0) } ?? .null),
            ("notificationId", .string(notifications.first { $0.marker == p?.marker }?.id ?? "")),
        ]
    }

    public func result(_ outcome: TriggerResult.Outcome, _ detail: String, pushes: Int) -> TriggerResult {
        let ids = notifications.map { $0.id ?? "" }
        let callId = notifications.first?.givenCallId ?? ""
        var facts: [(key: String, value: JSONValue)] = [
            ("externalId", .string(plan.externalId)), ("notifications", .array(ids.map { .string($0) })),
        ]
        if plan.kind == .call { facts.append(("callId", .string(callId))) }
        let line =
            "External ID \(plan.externalId), notification\(ids.count == 1 ? "" : "s") "
            + (ids.isEmpty ? "none" : ids.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: ", "))
            + (plan.kind == .call ? ", call \(callId.isEmpty ? "(generated)" : callId)" : "")
        return TriggerResult(
            outcome: outcome, detail: detail, facts: facts, factsLine: line, answers: answers, pushes: pushes,
            violations: violations)
    }

    /// `the incoming call` / `the notification`.
    func describe(_ n: PushServiceNotification) -> String {
        switch n.action {
        case "incoming"?: return "the incoming call"
        case "ended"?: return "the call's ended"
        default: return "the notification"
        }
    }

    /// A device ringcheck did not register, by its shortened token.
    static func shortTarget(_ c: Capture) -> String {
        "device " + Redaction.shortToken(PushServiceCounts.token(of: c) ?? "?")
    }
}
