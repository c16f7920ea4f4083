import Conformance
import PushMocks
import Reports
import Synchronization

/// The history of a push-service load run, kept per unit (a notification, or a call's `incoming` and `ended`
/// together) and judged as each settles: the mocks hand it every capture (`file`), filed under its unit by the
/// marker in its data; a unit is judged `lingerMs` after each of its notifications settled (its counts read back
/// with `remaining` 0, so every push it was due is in) or passed its deadline, and its captures are then dropped.
/// What stays of a judged unit is its records and the tokens each marker reached, for the latest
/// `recentLimit` units: a push that comes after its unit was judged is still judged (a second push to a device, an
/// incoming-call push after the ring).
final class PushServiceLoadJudge: Sendable {
    struct Unit {
        var records: [PushServiceLoadRecord] = []
        var captures: [Capture] = []
        /// All its notifications were sent.
        var sent = false
        /// When its last notification settled (or gave up): it is judged `lingerMs` later.
        var settledAt: ContinuousClock.Instant?
    }

    /// What stays of a judged unit.
    struct Judged {
        var records: [PushServiceLoadRecord]
        /// Marker → the tokens (lowercased) an accepted push reached.
        var reached: [String: Set<String>]
    }

    struct Findings {
        var history: [LoadViolation] = []
        var invariants: [LoadViolation] = []
        var pushes = 0
        var invitations = 0
        var lag: [String: LatencyHistogram] = [:]
        var settle = LatencyHistogram()
    }

    struct State {
        var open: [String: Unit] = [:]
        /// Marker → its unit's key.
        var unitOf: [String: String] = [:]
        var judged: [String: Judged] = [:]
        /// Judged units' keys, oldest first (at most `recentLimit`).
        var judgedOrder: [String] = []
        /// The units whose counts are to be read, each when due, roughly in order (`nextToRead` from `head`).
        var queue: [(key: String, due: ContinuousClock.Instant)] = []
        var head = 0
        var findings = Findings()
    }

    static let recentLimit = 2_000
    /// How soon after its unit was sent a notification is first read, and how soon it is read again.
    static let firstRead: Duration = .milliseconds(100)
    static let rereadAfter: Duration = .milliseconds(250)

    let state = Mutex(State())
    let faulted: Set<String>
    let levels: [String: RequirementLevel]
    let bundleId: String
    let voipTopic: String
    let lingerMs: Int64
    /// Every device of the run by token (lowercased).
    let byToken: [String: PushServiceDevice]

    init(
        devices: [PushServiceDevice], faulted: Set<String>, levels: [String: RequirementLevel], bundleId: String,
        voipTopic: String, lingerMs: Int64
    ) {
        self.faulted = faulted
        self.levels = levels
        self.bundleId = bundleId
        self.voipTopic = voipTopic
        self.lingerMs = lingerMs
        byToken = Dictionary(
            devices.flatMap { d in d.tokens.map { ($0.lowercased(), d) } }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Recording

    /// Unit `key` begins: its notifications' pushes are filed under it from now on.
    func open(_ key: String) { state.withLock { $0.open[key] = Unit() } }

    /// The marker a notification of unit `key` will carry (before it is sent: its pushes may come before its answer).
    func expect(_ marker: String, in key: String) { state.withLock { $0.unitOf[marker] = key } }

    /// A notification of unit `key` was answered.
    func add(_ record: PushServiceLoadRecord, to key: String) {
        state.withLock { $0.open[key]?.records.append(record) }
    }

    /// Every notification of unit `key` was sent: its counts are read from now on.
    func sent(_ key: String) {
        state.withLock {
            $0.open[key]?.sent = true
            $0.queue.append((key, .now + Self.firstRead))
        }
    }

    /// A capture from the mocks: filed under its unit, or judged at once when its unit was judged already.
    func file(_ c: Capture) {
        guard let p = PushServicePush(c) else { return }
        state.withLock { s in
            s.findings.pushes += 1
            guard let marker = p.marker, let key = s.unitOf[marker] else {
                record(nil, [c], history: [], into: &s.findings)
                return
            }
            if s.open[key] != nil {
                s.open[key]!.captures.append(c)
            } else if let done = s.judged[key] {
                let (history, reached) = late(c, p, marker: marker, done)
                s.judged[key]?.reached[marker] = reached
                record(done.records, [c], history: history, into: &s.findings)
            }
        }
    }

    // MARK: Reading the counts

    /// The next notification whose counts are due to be read (its unit sent and not settled), nil when none is
    /// due yet; a unit none of whose notifications is left to read has settled.
    func nextToRead() -> (key: String, index: Int, record: PushServiceLoadRecord)? {
        let now = ContinuousClock.now
        return state.withLock { s in
            defer {
                if s.head > 1_024 && s.head * 2 > s.queue.count {
                    s.queue.removeFirst(s.head)
                    s.head = 0
                }
            }
            while s.head < s.queue.count {
                let (key, due) = s.queue[s.head]
                guard due <= now else { return nil }
                s.head += 1
                guard let unit = s.open[key], unit.settledAt == nil else { continue }
                guard
                    let i = unit.records.firstIndex(where: {
                        $0.notification.accepted && $0.notification.id != nil && $0.counts == nil
                            && $0.unsettled == nil
                    })
                else {
                    s.open[key]!.settledAt = now
                    continue
                }
                return (key, i, unit.records[i])
            }
            return nil
        }
    }

    /// What one read of notification `index` of unit `key` found: its record with counts (settled), with
    /// `unsettled` (given up), or unchanged (read again `rereadAfter` later).
    func read(_ key: String, _ index: Int, _ record: PushServiceLoadRecord) {
        state.withLock { s in
            guard s.open[key] != nil else { return }
            s.open[key]!.records[index] = record
            let done = record.counts != nil || record.unsettled != nil
            s.queue.append((key, done ? .now : .now + Self.rereadAfter))
        }
    }

    /// Whether every unit was judged.
    var idle: Bool { state.withLock { $0.open.isEmpty } }

    // MARK: Judging

    /// Judges the units settled `lingerMs` ago or more (every open one with `all`, at the end of the run).
    func judgeSettled(all: Bool = false) {
        let now = ContinuousClock.now
        state.withLock { s in
            let due = s.open.filter { _, u in
                all || (u.settledAt.map { now - $0 >= .milliseconds(lingerMs) } ?? false)
            }
            for (key, found) in due.sorted(by: { $0.key < $1.key }) {
                s.open[key] = nil
                var unit = found
                for i in unit.records.indices
                where unit.records[i].notification.accepted && unit.records[i].notification.id != nil
                    && unit.records[i].counts == nil && unit.records[i].unsettled == nil
                {
                    unit.records[i].unsettled =
                        "not settled within the settle limit; last answer \(unit.records[i].lastAnswer ?? "none")"
                }
                let history = PushServiceLoadHistory.check(
                    unit.records, captures: unit.captures, faulted: faulted, levels: levels)
                record(unit.records, unit.captures, history: history, into: &s.findings)
                PushServiceLoadWorkload.addLag(unit.records, unit.captures, into: &s.findings.lag)
                for r in unit.records { if let ms = r.settleMs { s.findings.settle.add(Double(ms)) } }
                var reached: [String: Set<String>] = [:]
                for c in unit.captures where c.outcome.isAccepted {
                    if let m = PushServicePush(c)?.marker, let t = PushServiceCounts.token(of: c) {
                        reached[m, default: []].insert(t.lowercased())
                    }
                }
                s.judged[key] = Judged(records: unit.records, reached: reached)
                s.judgedOrder.append(key)
            }
            if s.judgedOrder.count > Self.recentLimit {
                for key in s.judgedOrder.prefix(s.judgedOrder.count - Self.recentLimit) {
                    if let done = s.judged.removeValue(forKey: key) {
                        for r in done.records { s.unitOf[r.notification.marker] = nil }
                    }
                }
                s.judgedOrder.removeFirst(s.judgedOrder.count - Self.recentLimit)
            }
        }
    }

    /// A push for a unit judged already: a second push to a device it reached, or an incoming-call push after the
    /// ring; the tokens its marker reached, with it.
    func late(_ c: Capture, _ p: PushServicePush, marker: String, _ done: Judged) -> ([LoadViolation], Set<String>) {
        var reached = done.reached[marker] ?? []
        guard c.outcome.isAccepted, let token = PushServiceCounts.token(of: c)?.lowercased(),
            let r = done.records.first(where: { $0.notification.marker == marker })
        else { return ([], reached) }
        var out: [LoadViolation] = []
        let device = byToken[token]?.name ?? "a device"
        func add(_ rule: HistoryRule, _ requirement: RequirementID, _ message: String) {
            out.append(
                LoadViolation.charge(
                    requirement, levels: levels, rule: rule,
                    callId: r.notification.givenCallId ?? r.notification.id ?? marker,
                    message: "\(r.name): \(message)"))
        }
        if !reached.insert(token).inserted {
            add(
                .oncePerDevice,
                r.notification.isCall ? PushServiceRequirement.noDuplicate : PushServiceRequirement.reachEvery,
                "\(device) got another push (#\(c.sequence)) after the notification had settled")
        }
        if r.notification.action == "incoming",
            let v = PushServiceInvariants.lateCall(
                c, p, done.records.map(\.notification), tiedTo: r.notification)
        {
            add(.noLateCall, PushServiceRequirement.noLateCall, "\(device): \(v.actual)")
        }
        return (out, reached)
    }

    /// The history findings, the profile's push rules over `captures` (of the unit whose `records` they answer;
    /// nil: pushes that name no notification of the run) and the incoming-call pushes accepted.
    func record(
        _ records: [PushServiceLoadRecord]?, _ captures: [Capture], history: [LoadViolation],
        into f: inout Findings
    ) {
        f.history += history
        let pushes = captures.compactMap { c -> PushServiceJudgedPush? in
            PushServiceCounts.token(of: c).flatMap { byToken[$0.lowercased()] }.map {
                PushServiceJudgedPush(capture: c, device: $0)
            }
        }
        let bySequence = Dictionary(captures.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        for v in PushServiceInvariants.check(
            pushes, notifications: (records ?? []).map(\.notification), bundleId: bundleId, voipTopic: voipTopic)
        {
            f.invariants.append(
                LoadViolation.charge(
                    v, levels: levels,
                    callId: v.sequence.flatMap { bySequence[$0] }.flatMap { PushServicePush($0)?.callId },
                    message: "push #\(v.sequence ?? 0) \(v.message)"))
        }
        f.invitations +=
            captures.filter {
                $0.outcome.isAccepted && PushServicePush($0)?.type == PushServiceNotification.incomingType
            }.count
    }

    /// Everything found, the history in the order of `HistoryRule.pushService`.
    var findings: Findings {
        state.withLock { s in
            var f = s.findings
            f.history = f.history.ordered(by: HistoryRule.pushService)
            return f
        }
    }
}
