import Conformance
import PushMocks
import Reports
import Synchronization

/// The history of a DialStack load run, kept per webhook and judged as each closes: the mocks hand it every
/// capture (`file`), filed under the webhook whose `call_id` it carries; a webhook is judged `lingerMs` after
/// its unit finished (so a second push still has time to arrive) and its captures dropped, keeping only how
/// often each of its devices was pushed (a push that comes later is judged against that).
final class DialStackLoadJudge: Sendable {
    struct Open {
        var unit: DialStackLoadUnit
        var captures: [Capture] = []
        var closedAt: ContinuousClock.Instant?
    }

    struct Judged {
        var unit: DialStackLoadUnit
        var rung: [String: Int]
    }

    struct Findings {
        var history: [LoadViolation] = []
        var invariants: [LoadViolation] = []
        var pushes = 0
        var wakeUps = 0
        /// Webhook → push latency of each accepted push, per platform.
        var latency: [String: LatencyHistogram] = [:]
        /// The pushes tied to no one webhook while naming a call (at most 20): judged by no rule that reads one.
        var notes: [String] = []
    }

    struct State {
        var open: [String: Open] = [:]
        var judged: [String: Judged] = [:]
        var findings = Findings()
    }

    let state = Mutex(State())
    /// Every device of the run by token (lowercased): its name and its user.
    let owners: [String: (device: String, user: String)]
    let levels: [String: RequirementLevel]
    let voipTopic: String
    /// Whether the mocks see the pushes: without them, no device is expected to be seen pushed.
    let watching: Bool
    let lingerMs: Int64

    init(
        owners: [String: (device: String, user: String)], levels: [String: RequirementLevel], voipTopic: String,
        watching: Bool, lingerMs: Int64
    ) {
        self.owners = owners
        self.levels = levels
        self.voipTopic = voipTopic
        self.watching = watching
        self.lingerMs = lingerMs
    }

    // MARK: Recording

    /// A webhook is about to be sent: its pushes are filed under it from now on.
    func open(_ unit: DialStackLoadUnit) { state.withLock { $0.open[unit.callId] = Open(unit: unit) } }

    /// A delivery of the webhook was answered (or not).
    func delivered(_ callId: String, _ delivery: DialStackDelivery) {
        state.withLock { $0.open[callId]?.unit.deliveries.append(delivery) }
    }

    /// The unit is over: the webhook is judged once `lingerMs` have passed.
    func close(_ callId: String) { state.withLock { $0.open[callId]?.closedAt = .now } }

    /// A capture from the mocks: filed under the webhook whose call ID it carries (`DialStackPush.tie`, by content:
    /// the value under any key), judged at once when that one was judged already, or judged alone (by the profile's
    /// push rules, and noted when it names a call it cannot be tied to) when it carries no webhook's call of the
    /// run, or several.
    func file(_ c: Capture) {
        guard let push = DialStackPush(c) else { return }
        let judged = self.push(c)
        state.withLock { s in
            s.findings.pushes += 1
            let tie = push.tie { s.open[$0] != nil || s.judged[$0] != nil }
            guard case .call(let id) = tie else {
                record(nil, [judged], history: [], tie: tie, into: &s.findings)
                return
            }
            if s.open[id] != nil {
                s.open[id]!.captures.append(c)
            } else if let done = s.judged[id] {
                let (history, rung) = DialStackLoadHistory.check(
                    done.unit, pushes: [judged], prior: done.rung, whole: false, levels: levels)
                s.judged[id]?.rung = rung
                record(done.unit, [judged], history: history, into: &s.findings)
            }
        }
    }

    /// Waits until each of `devices` has an accepted push for `callId`, polling every 50 ms, at most `timeout`;
    /// whether they all have.
    func waitForPushes(_ callId: String, devices: [VirtualCallee], timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        let names = Set(devices.map(\.name))
        while true {
            let reached = state.withLock { s in
                Set(
                    (s.open[callId]?.captures ?? []).filter(\.outcome.isAccepted).compactMap {
                        owners[($0.deviceToken ?? $0.fcmTarget?.value ?? "").lowercased()]?.device
                    })
            }
            if names.isSubset(of: reached) { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: Judging

    /// Judges the webhooks closed for `lingerMs` (all closed ones with `all`; the open ones too with
    /// `everything`, at the end of the run).
    func judgeClosed(all: Bool = false) {
        let now = ContinuousClock.now
        state.withLock { s in
            let due = s.open.filter { _, o in
                guard let closed = o.closedAt else { return all }
                return all || now - closed >= .milliseconds(lingerMs)
            }
            for (id, o) in due.sorted(by: { ($0.value.unit.firstSentMs ?? 0) < ($1.value.unit.firstSentMs ?? 0) }) {
                s.open[id] = nil
                let pushes = o.captures.sorted { $0.sequence < $1.sequence }.map(push)
                let (history, rung) = DialStackLoadHistory.check(
                    o.unit, pushes: pushes, whole: watching, levels: levels)
                s.judged[id] = Judged(unit: o.unit, rung: rung)
                record(o.unit, pushes, history: history, into: &s.findings)
            }
        }
    }

    /// Everything found, the history in the order of `HistoryRule.dialStack`.
    var findings: Findings {
        state.withLock { s in
            var f = s.findings
            f.history = f.history.ordered(by: HistoryRule.dialStack)
            return f
        }
    }

    /// The history findings, the profile's push rules (`DialStackInvariants`) and the latencies of `pushes`
    /// of `unit` (nil: pushes tied to no one webhook of the run, `tie` saying why: a note when they name a call).
    func record(
        _ unit: DialStackLoadUnit?, _ pushes: [DialStackJudgedPush], history: [LoadViolation],
        tie: DialStackCallTie? = nil, into f: inout Findings
    ) {
        f.history += history
        let deliveries = unit?.deliveries ?? []
        if let why = tie?.unattributedReason, f.notes.count < 20 {
            f.notes += pushes.map { "push #\($0.capture.sequence) to \($0.device) is unattributed: \(why)" }
        }
        // A push carrying several webhooks' calls meets DIALSTACK-PUSH-1 whichever it answers: judged untied.
        var several = false
        if case .several = tie { several = true }
        for v in DialStackInvariants.check(pushes, deliveries: deliveries, voipTopic: voipTopic, callsKnown: !several) {
            f.invariants.append(
                LoadViolation.charge(
                    v, levels: levels, callId: unit?.callId,
                    message: (unit.map { "\($0.name): " } ?? "") + "push #\(v.sequence ?? 0) \(v.message)"))
        }
        let latency = DialStackLatency(pushes, deliveries: deliveries)
        let platforms = Dictionary(
            pushes.map { ($0.capture.sequence, DialStackPush($0.capture)?.platform) }, uniquingKeysWith: { a, _ in a })
        for sample in latency.samples {
            let name = platforms[sample.sequence] == .fcm ? Self.fcmFigure : Self.apnsFigure
            f.latency[name, default: LatencyHistogram()].add(Double(sample.milliseconds))
            if unit?.wakes == true { f.wakeUps += 1 }
        }
        for sample in latency.tooSlow {
            f.invariants.append(
                LoadViolation.charge(
                    DialStackRequirement.latency, levels: levels, otherwise: .should, callId: unit?.callId,
                    message: (unit.map { "\($0.name): " } ?? "")
                        + "\(sample.device) woken \(sample.milliseconds) ms after the webhook (bound "
                        + "\(DialStackTiming.latencyBoundMs) ms)"))
        }
    }

    /// The capture with the device and user it reached (the user nil for a device the run did not register).
    func push(_ c: Capture) -> DialStackJudgedPush {
        let token = (c.deviceToken ?? c.fcmTarget?.value ?? "").lowercased()
        if let owner = owners[token] { return DialStackJudgedPush(capture: c, device: owner.device, user: owner.user) }
        return DialStackJudgedPush(capture: c, device: "device " + Redaction.shortToken(token), user: "")
    }

    static let apnsFigure = "wake-up via APNs (budget 30 s)"
    static let fcmFigure = "wake-up via FCM (budget 30 s)"
}
