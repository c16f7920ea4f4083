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
    static func check(_ pushes: [DialStackJudgedPush], deliveries: [DialStackDelivery], voipTopic: String)
        -> [Violation]
    {
        var out: [Violation] = []
        // Accepted pushes per device and event, to see a redelivery ring again.
        var rung: [String: Int] = [:]
        for push in pushes {
            guard let wakeUp = DialStackPush(push.capture) else { continue }
            let c = push.capture
            let delivery = matchingDelivery(wakeUp, arrivalMs: c.arrivalMs, deliveries)
            var timesRung = 0
            var redelivered = false
            if let d = delivery, d.callId.map(wakeUp.carries) ?? (wakeUp.callId != nil), c.outcome.isAccepted {
                let key = push.device + " " + d.eventId
                rung[key, default: 0] += 1
                timesRung = rung[key]!
                redelivered = deliveries.filter { $0.eventId == d.eventId && $0.signedValidly }.count > 1
            }
            let subject = DialStackPushSubject(
                push: push, wakeUp: wakeUp, delivery: delivery, timesRung: timesRung, redelivered: redelivered,
                voipTopic: voipTopic)
            out += DialStackRules.all.violations(of: subject, captures: [c.sequence])
        }
        return out
    }

    /// The webhook a push answers: the latest validly signed delivery sent before it arrived (any delivery if none
    /// was valid) of the call it names (`call_id`/`callId`), else of a call whose ID it holds under any key
    /// (`DialStackPush.carries`); for a push tied to none, the latest valid delivery before it (so a push naming a
    /// call no webhook announced is judged against that one, and fails DIALSTACK-PUSH-1).
    static func matchingDelivery(_ push: DialStackPush, arrivalMs: Int64, _ deliveries: [DialStackDelivery])
        -> DialStackDelivery?
    {
        let before = deliveries.filter { $0.sentAtMs <= arrivalMs }
        for sameCall in [
            push.callId.map { id in before.filter { $0.callId == id } } ?? [],
            before.filter { $0.callId.map(push.carries) ?? false },
        ] {
            if let d = sameCall.last(where: \.signedValidly) ?? sameCall.last { return d }
        }
        return before.last { $0.signedValidly }
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
