import Conformance
import Foundation
import InputLimits
import JSON
import PushMocks

/// One push the invariants judge, with the scenario device and user it reached.
struct DialStackJudgedPush: Sendable {
    var capture: Capture
    var device: String
    var user: String
}

/// The DialStack rules (`DialStackRules`) over every push of a scenario run, as a pure function of the captures and
/// the webhooks sent.
enum DialStackInvariants {
    static func check(
        _ pushes: [DialStackJudgedPush], deliveries: [DialStackDelivery], voipTopic: String, callsKnown: Bool = true
    ) -> [Violation] {
        judge(pushes, deliveries: deliveries, voipTopic: voipTopic, callsKnown: callsKnown).violations
    }

    /// `check`, with a note for every push tied to no one webhook by its content while it names a call
    /// (`DialStackCallTie.unattributedReason`): such a push is judged by no rule that reads its webhook, since a
    /// guess could charge the wrong one. `otherCalls` are calls beside the deliveries' (other scenarios'): a push
    /// carrying one of them and a delivery's call is tied to neither. Without `callsKnown` (captures alone) no push
    /// is tied, nor noted.
    static func judge(
        _ pushes: [DialStackJudgedPush], deliveries: [DialStackDelivery], voipTopic: String, callsKnown: Bool = true,
        otherCalls: Set<String> = []
    ) -> (violations: [Violation], notes: [String]) {
        var out: [Violation] = []
        var notes: [String] = []
        // Accepted pushes per device and event, to see a redelivery ring again.
        var rung: [String: Int] = [:]
        let calls = Set(deliveries.compactMap(\.callId)).union(otherCalls)
        for push in pushes {
            guard let wakeUp = DialStackPush(push.capture) else { continue }
            let c = push.capture
            let tie = callsKnown ? wakeUp.tie(isKnown: calls.contains) : .unjudged
            if let why = tie.unattributedReason {
                notes.append(
                    "push #\(c.sequence) to \(push.device) is unattributed: \(why), so no rule that reads its "
                        + "webhook judges it")
            }
            let delivery = Self.delivery(tie, arrivalMs: c.arrivalMs, deliveries)
            var timesRung = 0
            var redelivered = false
            if let d = delivery, c.outcome.isAccepted {
                let key = push.device + " " + d.eventId
                rung[key, default: 0] += 1
                timesRung = rung[key]!
                redelivered = deliveries.filter { $0.eventId == d.eventId && $0.signedValidly }.count > 1
            }
            let subject = DialStackPushSubject(
                push: push, wakeUp: wakeUp, tie: tie, delivery: delivery, timesRung: timesRung,
                redelivered: redelivered, voipTopic: voipTopic)
            out += DialStackRules.all.violations(of: subject, captures: [c.sequence])
        }
        return (out, notes)
    }

    /// The webhook a push answers, tied by its content to one call of `deliveries` (`DialStackPush.tie`): of that
    /// call's deliveries sent before it arrived (all of them when none was), the latest validly signed one, else
    /// the latest. nil for a push tied to no call, or to several: never the latest webhook by order.
    static func matchingDelivery(_ push: DialStackPush, arrivalMs: Int64, _ deliveries: [DialStackDelivery])
        -> DialStackDelivery?
    {
        let calls = Set(deliveries.compactMap(\.callId))
        return delivery(push.tie(isKnown: calls.contains), arrivalMs: arrivalMs, deliveries)
    }

    /// The delivery of `tie`'s call a push arriving at `arrivalMs` answers (see `matchingDelivery`).
    static func delivery(_ tie: DialStackCallTie, arrivalMs: Int64, _ deliveries: [DialStackDelivery])
        -> DialStackDelivery?
    {
        guard case .call(let id) = tie else { return nil }
        let sameCall = deliveries.filter { $0.callId == id }
        let before = sameCall.filter { $0.sentAtMs <= arrivalMs }
        let pool = before.isEmpty ? sameCall : before
        return pool.last(where: \.signedValidly) ?? pool.last
    }

    // MARK: Helpers

    /// Why a push's copy of a webhook field is wrong, or nil: the webhook's value as a string; when the webhook had
    /// none, absent, null or "" (FCM's from_name must then be "").
    static func fieldProblem(_ value: JSONValue?, sent: String?, emptyWhenMissing: Bool = false)
        -> (expected: String, actual: String)?
    {
        let actual = value?.serialized() ?? "absent"
        guard let sent else {
            let ok = value == nil || value == .null || value == .string("")
            return ok ? nil : ("absent or \"\" (the webhook has none)", actual)
        }
        if value?.stringValue == sent { return nil }
        if emptyWhenMissing && sent.isEmpty { return ("\"\" (the webhook has no from_name)", actual) }
        return (JSONValue.string(sent).serialized(), actual)
    }

    /// Seconds of a protobuf Duration string (`30s`, `29.5s`).
    static func durationSeconds(_ text: String) -> Double? {
        guard text.hasSuffix("s") else { return nil }
        return Double(text.dropLast())
    }

    static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "absent" }
}
