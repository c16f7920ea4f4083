import Conformance
import JSON
import PushMocks
import Reports
import Synchronization

/// Judges a load run's calls one at a time as they close, so that a run's memory holds its open calls
/// and not its whole history: each call's operations, pushes (the mocks' captures, diverted here instead
/// of kept in the capture log) and feed events are filed under its callId while it runs, judged with
/// `HistoryChecker` and the profile's invariants once it has been closed for `graceSeconds` and every feed
/// it touches was read to its end afterwards, and then dropped.
///
/// What stays across calls is small: the callIds already judged (a push that comes later still names its
/// call), the feeds that ever reported a gap, the eventIds of the latest `eventIdWindow` judged calls (an
/// eventId reused by another call is found while both are within that window), the figures, and the
/// violations.
///
/// The grace is longer than an invitation may be in flight (`InFlightInvitation.issuedBoundMs` plus the
/// margin), so a push that arrives after its call was judged would have broken CALLX-EXP-2 (an
/// invitation) by its arrival anyway; such a push is judged alone.
final class LoadJudge: Sendable {
    /// One call that is running or closed and not yet judged.
    struct OpenCall {
        /// Every feed the call's events may be read from (the caller's, then each callee device's).
        var feeds: [String]
        /// The callee devices' tokens (lowercased) its invitations go to.
        var invitationTokens: Set<String>
        var invited: Set<String> = []
        var waiter: Waiter?
        /// The call as the driver recorded it when it finished; nil while it runs.
        var record: LoadCall?
        var finishedAt: ContinuousClock.Instant?
        var operations: [LoadOperation] = []
        var captures: [Capture] = []
        var feedEntries: [String: [FeedEntry]] = [:]
        var events: [ObservedEvent] = []

        /// Files a push of this call; the waiter to resume when it completes the invitations awaited.
        mutating func fileCapture(_ capture: Capture, token: String, isInvitation: Bool) -> (Waiter, Bool)? {
            captures.append(capture)
            if isInvitation && invitationTokens.contains(token) { invited.insert(token) }
            guard let w = waiter, invited.count >= w.count else { return nil }
            waiter = nil
            return (w, true)
        }
    }

    /// A `waitForInvitations` call.
    struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Bool, Never>
        var timeout: Task<Void, Never>?
    }

    struct State {
        var open: [String: OpenCall] = [:]
        /// The calls of `open` that finished, in the order they did (`judgeClosed` scans these, not the
        /// running ones).
        var closed: [(callId: String, finishedAt: ContinuousClock.Instant)] = []
        var judged: Set<String> = []
        var feedsWithGap: Set<String> = []
        /// When each feed was last read to its end.
        var feedReadToEnd: [String: ContinuousClock.Instant] = [:]
        /// Pushes and events for calls already judged, or for no call, waiting for the next `judgeClosed`.
        var lateCaptures: [Capture] = []
        var lateEvents: [ObservedEvent] = []
    }

    /// What judging found so far; touched only by the judging task (`judgeClosed`, `judgeAll`).
    struct Findings {
        var history: [LoadViolation] = []
        var invariants: [LoadViolation] = []
        var pushes = 0
        var invitations = 0
        var invitationLatency = LatencyHistogram()
        var stopSignalLatency = LatencyHistogram()
        var registry = EventIdRegistry()
        /// The eventIds each of the latest judged calls put in `registry`, oldest first.
        var registryWindow: [(callId: String, eventIds: [String])] = []
    }

    let state = Mutex(State())
    let findings = Mutex(Findings())
    /// The invariants' view of the run: devices, topic, secrets (the calls' timelines are added per call).
    let context: InvariantContext?
    /// Installation ID of each callee device, by lowercased token.
    let installations: [String: String]
    /// Each requirement's level in Callx's catalogue (`RequirementCatalogue.embeddedLevels(of:)`): what the
    /// history rules charge at.
    let levels: [String: RequirementLevel]
    let inFlightMarginMs: Int64
    let graceSeconds: Double
    let waitLimitSeconds: Double
    let eventIdWindow: Int

    init(
        context: InvariantContext?, installations: [String: String], levels: [String: RequirementLevel],
        inFlightMarginMs: Int64, graceSeconds: Double = Double(InFlightInvitation.issuedBoundMs + 2_000) / 1000,
        waitLimitSeconds: Double,
        eventIdWindow: Int = 2_000
    ) {
        self.context = context
        self.installations = installations
        self.levels = levels
        self.inFlightMarginMs = inFlightMarginMs
        self.graceSeconds = graceSeconds
        self.waitLimitSeconds = waitLimitSeconds
        self.eventIdWindow = eventIdWindow
    }

    // MARK: Filing

    /// Starts filing for `callId` (before its create is sent: its pushes may arrive before the answer).
    func open(_ callId: String, feeds: [String], invitationTokens: Set<String>) {
        state.withLock { s in
            var call = OpenCall(feeds: feeds, invitationTokens: invitationTokens)
            // A gap a feed reported earlier excuses an event it does not return, as it did for the whole run.
            for feed in feeds where s.feedsWithGap.contains(feed) { call.feedEntries[feed] = [.gap(atMs: 0)] }
            s.open[callId] = call
        }
    }

    /// The call ended (`record` nil when its create failed: it is dropped, as a call the backend never had).
    func close(_ callId: String, record: LoadCall?) {
        let waiter = state.withLock { s -> Waiter? in
            guard let record else { return s.open.removeValue(forKey: callId)?.waiter }
            guard let index = s.open.index(forKey: callId) else { return nil }
            let now = ContinuousClock.Instant.now
            s.open.values[index].record = record
            s.open.values[index].finishedAt = now
            s.closed.append((callId, now))
            return nil
        }
        waiter?.timeout?.cancel()
        waiter?.continuation.resume(returning: false)
    }

    func record(_ op: LoadOperation) {
        state.withLock { s in s.open[op.callId]?.operations.append(op) }
    }

    /// Files a capture the mocks diverted: under its call, or aside when its call was judged already.
    /// OAuth requests and pushes for no call of the run are dropped, as the whole-run judge ignored them.
    func file(_ capture: Capture) {
        guard capture.mock != .oauth, let callx = PushMatchDocument.callx(capture),
            let callId = callx["callId"]?.stringValue
        else { return }
        let token = (capture.deviceToken ?? capture.fcmTarget?.value ?? "").lowercased()
        let isInvitation = callx["type"]?.stringValue == "call.invited"
        let done = state.withLock { s -> (Waiter, Bool)? in
            // Changed in place: a copy taken out of `open` would copy its captures on append.
            guard let index = s.open.index(forKey: callId) else {
                if s.judged.contains(callId) { s.lateCaptures.append(capture) }
                return nil
            }
            return s.open.values[index].fileCapture(capture, token: token, isInvitation: isInvitation)
        }
        if let (waiter, found) = done {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: found)
        }
    }

    /// Files one page a feed returned: each event under its call, a gap under every open call that reads
    /// the feed. `readToEnd`: the page was the feed's last.
    func feed(_ feed: String, entries: [FeedEntry], raw: [JSONValue], atMs: Int64, readToEnd: Bool) {
        state.withLock { s in
            for (i, entry) in entries.enumerated() {
                switch entry {
                case .gap:
                    s.feedsWithGap.insert(feed)
                    for (id, call) in s.open where call.feeds.contains(feed) {
                        s.open[id]?.feedEntries[feed, default: []].append(entry)
                    }
                case .event(let e):
                    // `raw` lines up with the events, after a leading gap entry.
                    let offset = i - (entries.count - raw.count)
                    let observed =
                        raw.indices.contains(offset)
                        ? ObservedEvent(feed: feed, json: raw[offset], receivedAtMs: atMs) : nil
                    if s.open[e.callId] != nil {
                        s.open[e.callId]?.feedEntries[feed, default: []].append(entry)
                        if let observed { s.open[e.callId]?.events.append(observed) }
                    } else if let observed, e.callId.isEmpty || s.judged.contains(e.callId) {
                        s.lateEvents.append(observed)
                    }
                }
            }
            if readToEnd { s.feedReadToEnd[feed] = .now }
        }
    }

    /// Waits until `count` of the call's devices got an invitation (or `timeout` passes); whether they did.
    func waitForInvitations(_ callId: String, count: Int, timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let immediate = state.withLock { s -> Bool? in
                guard var call = s.open[callId] else { return false }
                if call.invited.count >= count { return true }
                call.waiter = Waiter(count: count, continuation: continuation)
                s.open[callId] = call
                return nil
            }
            if let immediate {
                continuation.resume(returning: immediate)
                return
            }
            let timer = Task { [self] in
                try? await Task.sleep(for: timeout)
                let waiter = state.withLock { s -> Waiter? in
                    defer { s.open[callId]?.waiter = nil }
                    return s.open[callId]?.waiter
                }
                waiter?.continuation.resume(returning: false)
            }
            let waiting = state.withLock { s -> Bool in
                guard s.open[callId]?.waiter != nil else { return false }
                s.open[callId]?.waiter?.timeout = timer
                return true
            }
            if !waiting { timer.cancel() }
        }
    }

    // MARK: Judging

    /// Judges every call closed for the grace whose feeds were read to their end since, and any push or
    /// event that came for a call already judged. Calls whose feeds could not be read for the wait limit
    /// past the grace are judged without the feeds-complete check.
    func judgeClosed(now: ContinuousClock.Instant = .now) {
        let grace = Duration.milliseconds(Int64(graceSeconds * 1000))
        let patience = grace + .milliseconds(Int64(waitLimitSeconds * 1000))
        let (ready, lateCaptures, lateEvents) = state.withLock { s in
            var ready: [(OpenCall, LoadCall, Bool)] = []
            var waiting: [(callId: String, finishedAt: ContinuousClock.Instant)] = []
            for (n, (id, finished)) in s.closed.enumerated() {
                // In finishing order: the first call still within the grace ends the scan.
                guard now - finished >= grace else {
                    waiting += s.closed[n...]
                    break
                }
                guard let index = s.open.index(forKey: id) else { continue }
                let drained = s.open.values[index].feeds.allSatisfy {
                    s.feedReadToEnd[$0].map { $0 > finished } ?? false
                }
                guard drained || now - finished >= patience, let record = s.open.values[index].record else {
                    waiting.append((id, finished))
                    continue
                }
                ready.append((s.open.remove(at: index).value, record, drained))
                s.judged.insert(id)
            }
            s.closed = waiting
            defer {
                s.lateCaptures = []
                s.lateEvents = []
            }
            return (ready, s.lateCaptures, s.lateEvents)
        }
        findings.withLock { f in
            for (call, record, drained) in ready { judge(call, record, drained: drained, into: &f) }
            judgeLate(captures: lateCaptures, events: lateEvents, into: &f)
        }
    }

    /// Judges every call still filed (the run is over and its feeds were read to the end, or `drained`
    /// says they could not be), then returns everything found, each list grouped by rule.
    func judgeAll(drained: Bool) -> Findings {
        let (left, lateCaptures, lateEvents) = state.withLock { s in
            let left = s.open.compactMap { id, call in call.record.map { (id, call, $0) } }
            for (id, _, _) in left { s.judged.insert(id) }
            s.open = [:]
            s.closed = []
            defer {
                s.lateCaptures = []
                s.lateEvents = []
            }
            return (left, s.lateCaptures, s.lateEvents)
        }
        return findings.withLock { f in
            for (_, call, record) in left.sorted(by: { $0.0 < $1.0 }) {
                judge(call, record, drained: drained, into: &f)
            }
            judgeLate(captures: lateCaptures, events: lateEvents, into: &f)
            f.history = f.history.ordered(by: HistoryRule.callx)
            return f
        }
    }

    /// One call's history and invariants; its eventIds join the window of recent calls'.
    func judge(_ call: OpenCall, _ record: LoadCall, drained: Bool, into f: inout Findings) {
        let captures = call.captures.sorted { $0.sequence < $1.sequence }
        let pushes = captures.map(push)
        let history = LoadHistory(
            calls: [record], operations: call.operations, pushes: pushes, feeds: call.feedEntries,
            feedsDrained: drained, inFlightMarginMs: inFlightMarginMs)
        f.history += HistoryChecker.check(history, levels: levels)
        f.pushes += pushes.count
        f.invitations += pushes.filter(\.isInvitation).count
        let latency = CallxLoadWorkload.pushLatencies(history)
        for v in latency.invitations { f.invitationLatency.add(v) }
        for v in latency.stopSignals { f.stopSignalLatency.add(v) }
        guard let context else { return }
        f.invariants += invariantFindings(
            captures: captures, events: call.events, history: history, context: context, registry: &f.registry)
        let eventIds = Set(pushes.compactMap(\.eventId) + call.events.compactMap { $0.json["eventId"]?.stringValue })
        f.registryWindow.append((record.callId, Array(eventIds)))
        while f.registryWindow.count > eventIdWindow {
            let (callId, ids) = f.registryWindow.removeFirst()
            // Only the uses this call made: an eventId another call used first stays with that call.
            for id in ids where f.registry.uses[id]?.identity.contains("of call \(callId)") == true {
                f.registry.uses[id] = nil
            }
        }
    }

    /// Pushes and events that came after their call was judged (or for no call): each push's own rules,
    /// and an invitation arriving after the grace is late whatever its send time.
    func judgeLate(captures: [Capture], events: [ObservedEvent], into f: inout Findings) {
        guard !captures.isEmpty || !events.isEmpty else { return }
        let pushes = captures.map(push)
        f.pushes += pushes.count
        for p in pushes where p.isInvitation {
            f.invitations += 1
            f.history.append(
                LoadViolation.charge(
                    "CALLX-EXP-2", levels: levels, rule: .invitationAfterEnd, callId: p.callId,
                    message: "invitation \(p.eventId ?? "?") to \(p.device) arrived at \(p.arrivalMs), more than "
                        + "\(LoadFigures.format(graceSeconds)) s after the call ended (it was judged already)"))
        }
        guard let context else { return }
        f.invariants += invariantFindings(
            captures: captures, events: events, history: LoadHistory(), context: context, registry: &f.registry)
    }

    /// A capture as the history sees it.
    func push(_ c: Capture) -> LoadPush {
        let callx = PushMatchDocument.callx(c)
        let token = (c.deviceToken ?? c.fcmTarget?.value ?? "").lowercased()
        return LoadPush(
            sequence: c.sequence, callId: callx?["callId"]?.stringValue ?? "",
            device: installations[token] ?? Redaction.shortToken(token), type: callx?["type"]?.stringValue ?? "?",
            eventId: callx?["eventId"]?.stringValue, revision: CallxLoadWorkload.revision(callx?["revision"]),
            issuedAtMs: callx?["issuedAtMs"]?.epochMsValue, arrivalMs: c.arrivalMs, accepted: c.outcome.isAccepted)
    }

    /// The profile's invariants (`InvariantChecker`, as every scenario of the suite applies them) over one
    /// call's pushes and the events the feeds returned for it.
    func invariantFindings(
        captures: [Capture], events: [ObservedEvent], history: LoadHistory, context base: InvariantContext,
        registry: inout EventIdRegistry
    ) -> [LoadViolation] {
        var context = base
        for (id, call) in history.calls {
            var t = CallTimeline(callId: id, expiresAtMs: call.expiresAtMs)
            for op in history.operations where op.succeeded {
                if op.state == "accepted" {
                    t.answeredObservedAtMs = min(t.answeredObservedAtMs ?? op.completeMs, op.completeMs)
                }
                if op.state == "ended" {
                    t.endedObservedAtMs = min(t.endedObservedAtMs ?? op.completeMs, op.completeMs)
                }
            }
            context.calls[id] = t
        }
        let bySequence = Dictionary(captures.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        let inFlight = HistoryChecker.inFlightInvitations(history)
        let violations = InvariantChecker.check(
            pushes: captures.compactMap(PushDocument.init(capture:)), events: events, context: context,
            registry: &registry
        ).filter { v in
            // An invitation whose send began before the end was in flight: the history check judged it.
            !(v.requirement.rawValue == "CALLX-EXP-2" && v.captures.first.map(inFlight.contains) == true)
        }
        return violations.map { v in
            let callId =
                v.captures.first.flatMap { bySequence[$0] }.flatMap {
                    PushMatchDocument.callx($0)?["callId"]?.stringValue
                }
                ?? v.events.first.flatMap { events.indices.contains($0) ? events[$0].json["callId"]?.stringValue : nil }
            // The rule's own level (a heuristic's), else the catalogue's, as the invariants' context holds it.
            return LoadViolation(
                v, level: v.level ?? base.levels[v.requirement.rawValue], callId: callId, message: v.description)
        }
    }
}
