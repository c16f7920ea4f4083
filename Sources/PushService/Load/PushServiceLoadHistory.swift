import Conformance
import PushMocks
import Reports

/// One notification of a push-service load run with what its history check needs: the request, the devices
/// it targets (those ringcheck faulted for good are excused from being reached), and its settled counts.
struct PushServiceLoadRecord: Sendable {
    var notification: PushServiceNotification
    var devices: [PushServiceDevice]
    /// The counts `GET /notifications/{id}` settled on (successful, failed, errored) and when they were read;
    /// nil when it never settled, with the last answer in words.
    var counts: (successful: Int, failed: Int, errored: Int, readAtMs: Int64)?
    var unsettled: String?
    /// The last answer of `GET /notifications/{id}` while it had not settled, in words.
    var lastAnswer: String?
    /// From the request to the read that found it settled (milliseconds).
    var settleMs: Int64?
    /// The `incoming` this `ended` ends (for "every device its incoming reached").
    var incomingMarker: String?

    /// `notification n3 (call incoming 5f2…, to load-x-u2)`: how a finding names it.
    var name: String {
        let what = notification.action.map { "call \($0) \(notification.givenCallId ?? "?")" } ?? "notification"
        return "\(what) \(notification.marker)" + (notification.id.map { " (id \($0))" } ?? "")
    }
}

/// The history check of a push-service load run as a pure function of the notifications sent and every push
/// captured: each device of the audience gets a normal notification once; a call's `incoming` at most once per
/// device and never after its `timeout`; its `ended` reaches every device the `incoming` reached; the settled
/// counts agree with what the mocks accepted and refused (`PushServiceCounts`).
enum PushServiceLoadHistory {
    static func check(
        _ records: [PushServiceLoadRecord], captures: [Capture], faulted: Set<String>,
        levels: [String: RequirementLevel]
    ) -> [LoadViolation] {
        var out: [LoadViolation] = []
        func add(_ rule: HistoryRule, _ requirement: RequirementID, _ r: PushServiceLoadRecord, _ message: String) {
            out.append(
                LoadViolation.charge(
                    requirement, levels: levels, rule: rule,
                    callId: r.notification.givenCallId ?? r.notification.id ?? r.notification.marker,
                    message: "\(r.name): \(message)"))
        }
        var byMarker: [String: [Capture]] = [:]
        for c in captures {
            if let marker = PushServicePush(c)?.marker { byMarker[marker, default: []].append(c) }
        }
        func accepted(_ marker: String, _ d: PushServiceDevice) -> [Capture] {
            (byMarker[marker] ?? []).filter { c in
                c.outcome.isAccepted
                    && d.tokens.contains { $0.lowercased() == PushServiceCounts.token(of: c)?.lowercased() }
            }
        }
        let all = records.map(\.notification)
        for r in records where r.notification.accepted {
            let n = r.notification
            for d in r.devices {
                let got = accepted(n.marker, d)
                if got.count > 1 {
                    add(
                        .oncePerDevice,
                        n.isCall ? PushServiceRequirement.noDuplicate : PushServiceRequirement.reachEvery,
                        r,
                        "\(d.name) got \(got.count) pushes (#\(got.map { String($0.sequence) }.joined(separator: ", #")))"
                    )
                }
                let due: Bool
                switch n.action {
                case "incoming": due = false  // a call that could not be sent before its ring ended is counted, not due
                case "ended": due = r.incomingMarker.map { !accepted($0, d).isEmpty } ?? false
                default: due = !faulted.contains(d.name)
                }
                if due && got.isEmpty {
                    add(
                        .reachEveryDevice, PushServiceRequirement.reachEvery, r,
                        n.action == "ended"
                            ? "\(d.name) rang for the call and got no ended push" : "\(d.name) got no push")
                }
            }
            for c in byMarker[n.marker] ?? [] where n.action == "incoming" && c.outcome.isAccepted {
                guard let p = PushServicePush(c), let late = PushServiceInvariants.lateCall(c, p, all, tiedTo: n) else {
                    continue
                }
                let token = PushServiceCounts.token(of: c)?.lowercased()
                let device = r.devices.first { $0.tokens.contains { $0.lowercased() == token } }?.name ?? "a device"
                add(.noLateCall, PushServiceRequirement.noLateCall, r, "\(device): \(late.actual)")
            }
            guard let counts = r.counts else {
                if let why = r.unsettled { add(.countsAgree, PushServiceRequirement.settles, r, why) }
                continue
            }
            let want = PushServiceCounts.expected(
                for: n, devices: r.devices, captures: byMarker[n.marker] ?? [], readAtMs: counts.readAtMs)
            if !want.admits(successful: counts.successful, failed: counts.failed, errored: counts.errored) {
                add(
                    .countsAgree, PushServiceRequirement.counts, r,
                    "GET counts successful \(counts.successful), failed \(counts.failed), errored \(counts.errored); "
                        + "the mocks say \(want.expectedText)")
            }
        }
        return out.ordered(by: HistoryRule.pushService)
    }
}
