import Conformance
import Reports

/// The whole-run check of a load run, in the manner of Jepsen's checkers: a pure function from a
/// recorded `LoadHistory` to the rules it breaks, each naming the call. No sockets, no clock.
///
/// | rule | judged on | requirement |
/// |---|---|---|
/// | exactly one winner per answered call | 2xx answers, snapshots and `call.accepted` events | CALLX-ARB-1 |
/// | a retry (same operationId and body) gets its original's status | deliberate retries whose original was answered | CALLX-IDEM-1/2/3 |
/// | revisions strictly increase per call in each feed | feed entries, in read order | CALLX-EVT-3 |
/// | every event once per feed (a gap may re-deliver what came before it) | feed entries | CALLX-EVT-6 |
/// | the events the run's operations caused are in the feed, or it reported a gap | drained feeds | CALLX-EVT-7 |
/// | at most one invitation per device and call, unless a repeat carries the same eventId | accepted pushes | CALLX-OUTBOX-4 |
/// | no invitation whose send began after the call stopped ringing (`issuedAtMs` > end + margin) | every invitation sent | CALLX-EXP-2 |
///
/// "Stopped ringing" is the earliest of: the completion of a request whose answer showed the call
/// accepted or ended, and the call's `expiresAtMs`. An invitation whose send could have begun before that
/// (its `issuedAtMs`, the time the backend stamped when it built the push, within the margin) was in
/// flight, not sent afterwards; a push without `issuedAtMs` is judged by its arrival.
///
/// Each violation is charged at the level Callx's requirement catalogue gives its requirement (`levels`,
/// `RequirementCatalogue.embeddedLevels(of: CallxProfile())`), as every profile's load judge charges.
public enum HistoryChecker {
    /// Every rule the history breaks, grouped by rule, then by call, each at its requirement's level in
    /// `levels` (MUST for an ID the catalogue does not list).
    public static func check(_ history: LoadHistory, levels: [String: RequirementLevel]) -> [LoadViolation] {
        var out: [LoadViolation] = []
        out += winners(history, levels)
        out += retries(history, levels)
        out += feedOrder(history, levels)
        out += delivered(history, levels)
        out += invitations(history, levels)
        return out
    }

    // MARK: One winner

    static func winners(_ h: LoadHistory, _ levels: [String: RequirementLevel]) -> [LoadViolation] {
        var claims: [String: [(installation: String, evidence: String)]] = [:]
        for op in h.operations where op.succeeded && op.state == "accepted" {
            guard let w = op.winner ?? (op.kind == .answer ? op.installationId : nil) else { continue }
            let what =
                op.kind == .answer
                ? "answer from \(op.installationId ?? "?") got \(op.status ?? 0)" : "\(op.kind.rawValue) showed"
            claims[op.callId, default: []].append((w, "\(what) (winner \(w), completed at \(op.completeMs))"))
        }
        for (feed, entries) in h.feeds {
            for case .event(let e) in entries where e.type == "call.accepted" {
                guard let w = e.answeredBy else { continue }
                claims[e.callId, default: []].append((w, "call.accepted \(e.eventId) in feed \(feed) names \(w)"))
            }
        }
        var out: [LoadViolation] = []
        for (callId, list) in claims.sorted(by: { $0.key < $1.key }) {
            var firstByWinner: [String: String] = [:]
            var order: [String] = []
            for c in list where firstByWinner[c.installation] == nil {
                firstByWinner[c.installation] = c.evidence
                order.append(c.installation)
            }
            guard order.count > 1 else { continue }
            out.append(
                LoadViolation.charge(
                    "CALLX-ARB-1", levels: levels, rule: .oneWinner, callId: callId,
                    message: "\(order.count) installations won (\(order.joined(separator: ", "))): "
                        + order.compactMap { firstByWinner[$0] }.joined(separator: "; ")))
        }
        return out
    }

    // MARK: Retries

    static func retries(_ h: LoadHistory, _ levels: [String: RequirementLevel]) -> [LoadViolation] {
        var originals: [String: LoadOperation] = [:]
        func key(_ op: LoadOperation) -> String { "\(op.kind.rawValue)|\(op.callId)|\(op.operationId ?? "")" }
        for op in h.operations where !op.isRetry && op.operationId != nil {
            if originals[key(op)] == nil { originals[key(op)] = op }
        }
        var out: [LoadViolation] = []
        for retry in h.operations where retry.isRetry {
            guard let original = originals[key(retry)], let first = original.status, let again = retry.status,
                first < 500, again < 500
            else { continue }
            guard first != again || (original.succeeded && original.error != retry.error) else { continue }
            let requirement: RequirementID
            switch retry.kind {
            case .create: requirement = "CALLX-IDEM-1"
            case .answer: requirement = "CALLX-IDEM-2"
            default: requirement = "CALLX-IDEM-3"
            }
            out.append(
                LoadViolation.charge(
                    requirement, levels: levels, rule: .retryOutcome, callId: retry.callId,
                    message: "the retry of \(retry.kind.rawValue) operationId \(retry.operationId ?? "?") got "
                        + "\(describe(retry)), the original \(describe(original))"))
        }
        return out
    }

    static func describe(_ op: LoadOperation) -> String {
        "\(op.status.map(String.init) ?? "no answer")" + (op.error.map { " \($0)" } ?? "")
    }

    // MARK: Feeds: once each, in order

    static func feedOrder(_ h: LoadHistory, _ levels: [String: RequirementLevel]) -> [LoadViolation] {
        var out: [LoadViolation] = []
        for (feed, entries) in h.feeds.sorted(by: { $0.key < $1.key }) {
            var seen: Set<String> = []
            var redeliverable: Set<String> = []
            var lastRevision: [String: (revision: Int64, eventId: String)] = [:]
            for entry in entries {
                switch entry {
                case .gap:
                    // After a gap the feed re-sends what it kept: events already read may come once more.
                    redeliverable = seen
                case .event(let e):
                    if seen.contains(e.eventId) {
                        if redeliverable.remove(e.eventId) != nil { continue }
                        out.append(
                            LoadViolation.charge(
                                "CALLX-EVT-6", levels: levels, rule: .eventOnce, callId: e.callId,
                                message: "feed \(feed) returned \(e.type) \(e.eventId) again (read at \(e.readAtMs)) "
                                    + "with no gap in between"))
                        continue
                    }
                    seen.insert(e.eventId)
                    guard let revision = e.revision else { continue }
                    if let last = lastRevision[e.callId], revision <= last.revision {
                        out.append(
                            LoadViolation.charge(
                                "CALLX-EVT-3", levels: levels, rule: .revisionOrder, callId: e.callId,
                                message: "feed \(feed): \(e.type) \(e.eventId) has revision \(revision) after "
                                    + "\(last.eventId) with revision \(last.revision)"))
                    }
                    lastRevision[e.callId] = (revision, e.eventId)
                }
            }
        }
        return out
    }

    // MARK: Feeds: nothing lost silently

    static func delivered(_ h: LoadHistory, _ levels: [String: RequirementLevel]) -> [LoadViolation] {
        guard h.feedsDrained else { return [] }
        var byCall: [String: [LoadOperation]] = [:]
        for op in h.operations { byCall[op.callId, default: []].append(op) }
        var out: [LoadViolation] = []
        for (callId, call) in h.calls.sorted(by: { $0.key < $1.key }) {
            let ops = byCall[callId] ?? []
            var expected: [(feed: String, type: String, because: String)] = []
            if let answer = ops.first(where: { $0.kind == .answer && $0.succeeded }) {
                expected.append(
                    (call.callerFeed, "call.accepted", "the answer from \(answer.installationId ?? "?") succeeded"))
            } else if let decline = ops.first(where: { $0.kind == .end && $0.succeeded && $0.installationId != nil }) {
                expected.append(
                    (call.callerFeed, "call.ended", "the callee's end from \(decline.installationId ?? "?") succeeded"))
            } else if ops.contains(where: { $0.kind == .end && $0.succeeded }) {
                for feed in call.calleeFeeds {
                    expected.append((feed, "call.ended", "the caller ended the ringing call"))
                }
            } else if ops.contains(where: { $0.kind == .get && $0.succeeded && $0.state == "ended" }) {
                expected.append((call.callerFeed, "call.ended", "the call ended unanswered"))
            }
            for e in expected {
                let entries = h.feeds[e.feed] ?? []
                if entries.contains(where: { if case .gap = $0 { return true } else { return false } }) { continue }
                let found = entries.contains { entry in
                    if case .event(let ev) = entry { return ev.callId == callId && ev.type == e.type }
                    return false
                }
                guard !found else { continue }
                out.append(
                    LoadViolation.charge(
                        "CALLX-EVT-7", levels: levels, rule: .eventDelivered, callId: callId,
                        message: "feed \(e.feed) never returned \(e.type) (\(e.because)) and reported no gap"))
            }
        }
        return out
    }

    // MARK: Invitations

    /// When the driver first knew the call had stopped ringing: a completed request whose answer
    /// showed it accepted or ended, or its expiry.
    static func stoppedRinging(_ h: LoadHistory) -> [String: (atMs: Int64, why: String)] {
        var out: [String: (atMs: Int64, why: String)] = [:]
        func note(_ callId: String, _ atMs: Int64, _ why: String) {
            if let known = out[callId], known.atMs <= atMs { return }
            out[callId] = (atMs, why)
        }
        for (callId, call) in h.calls { if let e = call.expiresAtMs { note(callId, e, "expired") } }
        for op in h.operations where op.succeeded && (op.state == "accepted" || op.state == "ended") {
            note(op.callId, op.completeMs, "\(op.state ?? "") (\(op.kind.rawValue) completed)")
        }
        return out
    }

    /// The capture sequence numbers of invitations that arrived after the call stopped ringing (plus the
    /// margin) but whose first send began before it: in flight, not sent afterwards. Under load a send can
    /// take seconds, so the profile's arrival-based rule (CALLX-EXP-2, sized for one quiet scenario)
    /// defers to this one for them.
    public static func inFlightInvitations(_ h: LoadHistory) -> Set<Int> {
        let stops = stoppedRinging(h)
        var attempted: Set<String> = []
        var out: Set<Int> = []
        for push in h.pushes.sorted(by: { $0.sequence < $1.sequence }) where push.isInvitation {
            let firstAttempt = attempted.insert(push.callId + "|" + push.device + "|" + (push.eventId ?? "")).inserted
            guard firstAttempt, let stop = stops[push.callId] else { continue }
            let limit = stop.atMs + h.inFlightMarginMs
            if push.arrivalMs > limit && sendBegan(push, firstAttempt: true, stop: stop.atMs, h) <= limit {
                out.insert(push.sequence)
            }
        }
        return out
    }

    /// When an invitation's send began, as judged against the moment its call stopped ringing (`stop`).
    static func sendBegan(_ push: LoadPush, firstAttempt: Bool, stop: Int64, _ h: LoadHistory) -> Int64 {
        InFlightInvitation.sendBeganMs(
            arrivalMs: push.arrivalMs, issuedAtMs: push.issuedAtMs, firstSend: firstAttempt, stopMs: stop,
            boundMs: h.inFlightIssuedBoundMs)
    }

    static func invitations(_ h: LoadHistory, _ levels: [String: RequirementLevel]) -> [LoadViolation] {
        let stops = stoppedRinging(h)
        var out: [LoadViolation] = []
        var first: [String: LoadPush] = [:]
        var reported: Set<String> = []
        var attempted: Set<String> = []
        for push in h.pushes.sorted(by: { $0.sequence < $1.sequence }) where push.isInvitation {
            // Only a message's first send to a device may have been in flight: a repeat of it is judged by
            // its arrival.
            let firstAttempt = attempted.insert(push.callId + "|" + push.device + "|" + (push.eventId ?? "")).inserted
            if let stop = stops[push.callId] {
                let began = sendBegan(push, firstAttempt: firstAttempt, stop: stop.atMs, h)
                if began > stop.atMs + h.inFlightMarginMs {
                    let basis =
                        began != push.arrivalMs
                        ? "its send began (issuedAtMs) at \(began)"
                        : "it arrived at \(began)" + (firstAttempt ? "" : " (a repeat of a message already sent)")
                    out.append(
                        LoadViolation.charge(
                            "CALLX-EXP-2", levels: levels, rule: .invitationAfterEnd, callId: push.callId,
                            message: "invitation \(push.eventId ?? "?") to \(push.device): \(basis), "
                                + "\(began - stop.atMs) ms after the call was \(stop.why) at \(stop.atMs) "
                                + "(margin \(h.inFlightMarginMs) ms)"))
                }
            }
            guard push.accepted else { continue }
            let key = push.callId + "|" + push.device
            guard let earlier = first[key] else {
                first[key] = push
                continue
            }
            guard push.eventId == nil || push.eventId != earlier.eventId, reported.insert(key).inserted else {
                continue
            }
            out.append(
                LoadViolation.charge(
                    "CALLX-OUTBOX-4", levels: levels, rule: .oneInvitation, callId: push.callId,
                    message:
                        "\(push.device) got a second invitation: \(earlier.eventId ?? "?") at \(earlier.arrivalMs), "
                        + "then \(push.eventId ?? "?") at \(push.arrivalMs)"))
        }
        return out
    }
}
