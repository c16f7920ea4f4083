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

/// One broken rule found in a push.
struct DialStackViolation: Sendable, Equatable {
    var requirement: String
    /// The field judged, `headers.apns-expiration`.
    var field: String
    var expected: String
    var actual: String
    /// The capture's sequence number.
    var sequence: Int
}

/// The DialStack rules over every push of a scenario run, as a pure function of the captures and the webhooks
/// sent: who was woken for which event, the VoIP push's headers and payload, the FCM data message. Time is judged
/// from the capture's arrival stamp, never from when the check runs.
enum DialStackInvariants {
    typealias R = DialStackRequirement

    static func check(_ pushes: [DialStackJudgedPush], deliveries: [DialStackDelivery], voipTopic: String)
        -> [DialStackViolation]
    {
        var out: [DialStackViolation] = []
        // Accepted pushes per device and event, to see a redelivery ring again.
        var rung: [String: Int] = [:]
        for push in pushes {
            guard let wakeUp = DialStackPush(push.capture) else { continue }
            let c = push.capture
            func fail(_ requirement: String, _ field: String, _ expected: String, _ actual: String) {
                out.append(
                    DialStackViolation(
                        requirement: requirement, field: field, expected: expected, actual: actual,
                        sequence: c.sequence))
            }
            let delivery = matchingDelivery(wakeUp, arrivalMs: c.arrivalMs, deliveries)
            if let d = delivery {
                if d.type != DialStackEvent.wakeUpType || d.user == nil {
                    fail(
                        R.wakeUpOnly, "event",
                        "no push for a \(d.type) event\(d.user == nil ? " without data.user_id" : "")",
                        "\(push.device) got a push for event \(d.eventId) (\(d.type))")
                } else if let user = d.user, user != push.user {
                    fail(
                        R.otherUser, "device", "pushes only to the devices of user \(user) (data.user_id)",
                        "\(push.device), a device of user \(push.user), got a push for event \(d.eventId)")
                }
            }
            if wakeUp.callId == nil {
                fail(
                    R.callId, wakeUp.platform == .apns ? "body.call_id" : "body.message.data.call_id",
                    "the webhook's call_id\(delivery?.callId.map { " \($0)" } ?? "")",
                    wakeUp.fields["call_id"].map { "\($0.serialized()) (not a string)" } ?? "absent")
            }
            if let d = delivery, wakeUp.callId != nil, c.outcome.isAccepted {
                let key = push.device + " " + d.eventId
                rung[key, default: 0] += 1
                let redelivered = deliveries.filter { $0.eventId == d.eventId && $0.signedValidly }.count > 1
                if rung[key]! > 1 && redelivered {
                    fail(
                        R.redelivery, "device", "one push per device for event \(d.eventId), however often delivered",
                        "\(push.device) was pushed \(rung[key]!) times for it")
                }
            }
            let wake = delivery.flatMap { $0.type == DialStackEvent.wakeUpType ? $0 : nil }
            switch wakeUp.platform {
            case .apns: out += apnsViolations(c, wakeUp, wake, voipTopic: voipTopic)
            case .fcm: out += fcmViolations(c, wakeUp, wake)
            }
        }
        return out
    }

    /// The webhook a push answers: the latest validly signed delivery of its `call_id` sent before it arrived (any
    /// delivery of that call if none was valid); for a push without `call_id`, the latest valid delivery before it.
    static func matchingDelivery(_ push: DialStackPush, arrivalMs: Int64, _ deliveries: [DialStackDelivery])
        -> DialStackDelivery?
    {
        let before = deliveries.filter { $0.sentAtMs <= arrivalMs }
        if let callId = push.callId {
            let sameCall = before.filter { $0.callId == callId }
            return sameCall.last { $0.signedValidly } ?? sameCall.last
        }
        return before.last { $0.signedValidly }
    }

    // MARK: APNs

    static func apnsViolations(
        _ c: Capture, _ push: DialStackPush, _ delivery: DialStackDelivery?, voipTopic: String
    ) -> [DialStackViolation] {
        var out: [DialStackViolation] = []
        func fail(_ requirement: String, _ field: String, _ expected: String, _ actual: String) {
            out.append(
                DialStackViolation(
                    requirement: requirement, field: field, expected: expected, actual: actual, sequence: c.sequence))
        }
        let headers = c.headers
        if headers["apns-push-type"] != "voip" {
            fail(R.apnsPushType, "headers.apns-push-type", "voip", quoted(headers["apns-push-type"]))
        }
        if headers["apns-topic"] != voipTopic {
            fail(R.apnsTopic, "headers.apns-topic", voipTopic, quoted(headers["apns-topic"]))
        }
        // APNs acts on 10 when the header is absent.
        if let priority = headers["apns-priority"], priority != "10" {
            fail(R.apnsPriority, "headers.apns-priority", "10", quoted(priority))
        }
        let expected = "a Unix time after the push's arrival and at most \(DialStackTiming.pushTTLSeconds) s after it"
        // A time past 2^40 s (year 36812) is not Unix seconds, and would overflow in milliseconds.
        if let raw = headers["apns-expiration"], let expiration = try? CheckedNumber.int64(raw, in: 0...(1 << 40)) {
            let aheadMs = expiration * 1000 - c.arrivalMs
            let limitMs = DialStackTiming.pushTTLSeconds * 1000 + DialStackTiming.roundingMarginMs
            if aheadMs <= 0 || aheadMs > limitMs {
                let when = aheadMs <= 0 ? "\(-aheadMs) ms before" : "\(aheadMs) ms after"
                fail(
                    R.apnsExpiration, "headers.apns-expiration", expected,
                    "\(raw), \(when) the push arrived (\(c.arrivalMs) ms)")
            }
        } else {
            fail(
                R.apnsExpiration, "headers.apns-expiration", expected,
                headers["apns-expiration"].map { "\(quoted($0)) (not Unix seconds)" } ?? "absent")
        }
        if let delivery {
            // Beside the call ID, wherever the payload's shape put it (top level in the seed's example).
            let call = push.callObject
            for name in ["from_number", "from_name", "to_number"] {
                if let problem = fieldProblem(call[name], sent: delivery.data[name]) {
                    fail(R.apnsCallerFields, "body.\(name)", problem.expected, problem.actual)
                }
            }
        }
        return out
    }

    // MARK: FCM

    static func fcmViolations(_ c: Capture, _ push: DialStackPush, _ delivery: DialStackDelivery?)
        -> [DialStackViolation]
    {
        var out: [DialStackViolation] = []
        func fail(_ requirement: String, _ field: String, _ expected: String, _ actual: String) {
            out.append(
                DialStackViolation(
                    requirement: requirement, field: field, expected: expected, actual: actual, sequence: c.sequence))
        }
        let message = c.json?["message"]
        let android = message?["android"]
        for (path, block) in [
            ("message.notification", message?["notification"]),
            ("message.android.notification", android?["notification"]),
        ] {
            if let block {
                fail(R.fcmDataOnly, "body.\(path)", "absent (a data message)", block.serialized())
            }
        }
        let priority = android?["priority"]
        if priority?.stringValue?.uppercased() != "HIGH" {
            fail(R.fcmPriority, "body.message.android.priority", "high", priority?.serialized() ?? "absent")
        }
        let ttl = android?["ttl"]
        let seconds = ttl?.stringValue.flatMap(durationSeconds)
        if seconds.map({ !($0 > 0 && $0 <= Double(DialStackTiming.pushTTLSeconds)) }) ?? true {
            fail(
                R.fcmTTL, "body.message.android.ttl",
                "a duration above 0 s and at most \(DialStackTiming.pushTTLSeconds) s",
                ttl?.serialized() ?? "absent (FCM keeps the message for up to 4 weeks)")
        }
        switch push.fields {
        case .object(let members):
            let nonStrings = members.filter { $0.value.stringValue == nil }
            if !nonStrings.isEmpty {
                fail(
                    R.fcmStrings, "body.message.data", "every value a string",
                    nonStrings.map { "\($0.key): \($0.value.serialized())" }.joined(separator: ", "))
            }
        case .null: break  // no data at all: the missing call_id says it
        default:
            fail(R.fcmStrings, "body.message.data", "an object of strings", push.fields.serialized())
        }
        if let delivery {
            if push.fields["type"]?.stringValue != DialStackEvent.wakeUpType {
                fail(
                    R.fcmFields, "body.message.data.type", DialStackEvent.wakeUpType,
                    push.fields["type"]?.serialized() ?? "absent")
            }
            for name in ["from_number", "from_name", "to_number"] {
                // The seed's `from_name || ''`: a webhook without one gives "".
                let sent = delivery.data[name] ?? (name == "from_name" ? "" : nil)
                if let problem = fieldProblem(push.fields[name], sent: sent, emptyWhenMissing: name == "from_name") {
                    fail(R.fcmFields, "body.message.data.\(name)", problem.expected, problem.actual)
                }
            }
        }
        return out
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
