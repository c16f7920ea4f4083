import Conformance
import Foundation
import JSON
import PushMocks

/// One push the invariants judge, with the scenario device it reached.
struct PushServiceJudgedPush: Sendable {
    var capture: Capture
    var device: PushServiceDevice
}

/// The push-service rules (`PushServiceRules`) over every push a scenario run's devices got, as a pure function of
/// the captures, the devices and the notifications sent.
enum PushServiceInvariants {
    typealias N = PushServiceNotification

    /// A backend may round its clock either way before adding a ttl.
    static let marginSeconds: Int64 = 2

    static func check(
        _ pushes: [PushServiceJudgedPush], notifications: [PushServiceNotification], bundleId: String,
        voipTopic: String
    ) -> [Violation] {
        judge(pushes, notifications: notifications, bundleId: bundleId, voipTopic: voipTopic).violations
    }

    /// `check`, with a note for every push that could answer more than one request (`PushServiceAttribution`):
    /// such a push is judged by no rule, since a guess could charge the wrong request.
    static func judge(
        _ pushes: [PushServiceJudgedPush], notifications: [PushServiceNotification], bundleId: String,
        voipTopic: String
    ) -> (violations: [Violation], notes: [String]) {
        var out: [Violation] = []
        var notes: [String] = []
        var accepted: [String: Int] = [:]
        // Per notification, the call_id its pushes carry (a generated one must be the same everywhere).
        var callIds: [String: (id: String, device: String)] = [:]
        let all = pushes.map(\.capture)
        for push in pushes.sorted(by: { $0.capture.sequence < $1.capture.sequence }) {
            let c = push.capture
            guard let p = PushServicePush(c) else { continue }
            let d = push.device
            let n: PushServiceNotification?
            switch PushServiceAttribution.of(c, p, device: d, notifications) {
            case .request(let i): n = notifications[i]
            case .none: n = nil
            case .unattributed(let candidates):
                notes.append(
                    "push #\(c.sequence) to \(d.name) is unattributed: its content fits "
                        + candidates.map { "request \(notifications[$0].marker)" }.joined(separator: " and ")
                        + " alike, so no rule that reads its request judges it")
                continue
            }
            let token = PushServiceCounts.token(of: c)?.lowercased()
            let toVoIP = token != nil && token == d.voipToken?.lowercased()
            let dead =
                toVoIP
                ? all.first(where: {
                    PushServiceCounts.token(of: $0)?.lowercased() == token && PushServiceCounts.isDeadToken($0)
                        && $0.sequence < c.sequence
                }) : nil
            var timesAccepted = 0
            if c.outcome.isAccepted, p.isCall, let callId = p.callId {
                // Per request: an app server may well send `ended` twice (with and without a missed-call text).
                let key = "\(d.name) \(p.type ?? "") \(callId) \(n?.marker ?? "")"
                accepted[key, default: 0] += 1
                timesAccepted = accepted[key]!
            }
            let kind =
                n.map { n -> String in
                    guard n.isCall else { return "notification" }
                    return n.action == "ended" ? N.endedType : N.incomingType
                } ?? (p.type ?? "notification")
            var firstCallId: (id: String, device: String)?
            if let n, kind == N.incomingType, n.givenCallId == nil,
                let callId = p.fields["call_id"].flatMap(text), UUID(uuidString: callId) != nil
            {
                firstCallId = callIds[n.marker]
                if firstCallId.map({ $0.id == callId }) ?? true { callIds[n.marker] = (callId, d.name) }
            }
            let subject = PushServicePushSubject(
                capture: c, push: p, device: d, notification: n, kind: kind, toVoIP: toVoIP, deadToken: dead,
                timesAccepted: timesAccepted, firstCallId: firstCallId, notifications: notifications,
                bundleId: bundleId, voipTopic: voipTopic)
            out += PushServiceRules.all.violations(of: subject, captures: [c.sequence])
        }
        return (out, notes)
    }

    /// A payload value as the seed's all-strings payload writes it: a string, or a number's or boolean's text.
    static func text(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s)?: return s
        case .number(let s)?: return s
        case .bool(let b)?: return b ? "true" : "false"
        default: return nil
        }
    }

    // MARK: Calls

    /// How long after its ring's end an incoming-call push may still arrive: one a service takes from its queue just
    /// before the end still has to reach the provider (milliseconds on loopback, seconds on a loaded runner). The
    /// late pushes this rule exists for came 15–95 s after the ring.
    static let lateCallMarginMs: Int64 = 5_000

    /// PUSHSVC-CALL-8: an `incoming_call` push that reached the provider after its call stopped ringing. The push is
    /// tied to its request by content — the request's `call.id` as the push's `call_id`, or for a generated id the
    /// request `PushServiceAttribution` tied it to (`tiedTo`) — never by time; that request's ring ended at the latest `timeout` seconds (the request's, else
    /// the `timeout` the push itself carries) after its answer came back. A push tied to no request is not judged.
    static func lateCall(_ c: Capture, _ p: PushServicePush, _ all: [N], tiedTo: N?) -> Violation? {
        guard p.type == N.incomingType else { return nil }
        let pushed = p.fields["timeout"]?.stringValue.flatMap { Int64($0) }.flatMap(N.usableRing)
        var latestEnd: Int64?
        for n in all where n.accepted && n.action == "incoming" {
            let same =
                n.givenCallId.map { $0.lowercased() == p.callId?.lowercased() }
                ?? (tiedTo?.marker == n.marker)
            guard same, let seconds = n.ringSeconds ?? pushed else { continue }
            let end = (n.answeredAtMs ?? n.sentAtMs) + seconds * 1000
            latestEnd = max(latestEnd ?? end, end)
        }
        guard let end = latestEnd, c.arrivalMs > end + lateCallMarginMs else { return nil }
        let late = Double(c.arrivalMs - end) / 1000
        return Violation(
            PushServiceRequirement.noLateCall, "arrival",
            expected: "no incoming_call push for call \(p.callId ?? "?") after its ring (timeout) ended "
                + "(+ \(lateCallMarginMs / 1000) s for the trip)",
            actual: "push #\(c.sequence) arrived \(String(format: "%.1f", late)) s after the ring ended",
            capture: c.sequence)
    }

    static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "absent" }
}
