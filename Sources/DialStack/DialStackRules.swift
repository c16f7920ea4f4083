import Conformance
import Foundation
import HTTP
import InputLimits
import JSON
import PushMocks

/// One wake-up push with what it is judged against: the webhook it answers and what came before it.
struct DialStackPushSubject: Sendable {
    var push: DialStackJudgedPush
    var wakeUp: DialStackPush
    /// The call its content ties it to, if one (`DialStackPush.tie`).
    var tie: DialStackCallTie
    /// The webhook the push answers (`DialStackInvariants.matchingDelivery`), if any.
    var delivery: DialStackDelivery?
    /// How many accepted pushes with a call ID this device got for the delivery's event so far, this one included
    /// (0 when this one is not such a push).
    var timesRung: Int
    /// Whether the delivery's event was delivered validly more than once.
    var redelivered: Bool
    var voipTopic: String

    var capture: Capture { push.capture }
    var headers: HTTPHeaders { capture.headers }
    /// The delivery when it is a wake-up event (the one whose fields the push must carry).
    var wake: DialStackDelivery? { delivery.flatMap { $0.type == DialStackEvent.wakeUpType ? $0 : nil } }
}

/// The DialStack profile's rules over every wake-up push, one per requirement: who is woken for which event, the
/// call ID, redeliveries, the VoIP push's headers and payload, the FCM data message. Time is judged from the
/// capture's arrival stamp, never from when the check runs.
enum DialStackRules {
    typealias R = DialStackRequirement
    typealias PushRule = Rule<DialStackPushSubject>

    /// The rules, in the order their findings are reported.
    static let all: [PushRule] = [
        wakeUpOnly, otherUser, callId, redelivery, apnsPushType, apnsTopic, apnsPriority, apnsExpiration,
        apnsCallerFields, fcmDataOnly, fcmPriority, fcmTTL, fcmStrings, fcmFields,
    ]

    // MARK: Who is woken

    /// DIALSTACK-WAKE-3: only `call.mobile_push_wakeup` with a `data.user_id` wakes anyone.
    static let wakeUpOnly = PushRule(R.wakeUpOnly) { s, found in
        guard let d = s.delivery, d.type != DialStackEvent.wakeUpType || d.user == nil else { return }
        found.add(
            "event", expected: "no push for a \(d.type) event\(d.user == nil ? " without data.user_id" : "")",
            actual: "\(s.push.device) got a push for event \(d.eventId) (\(d.type))")
    }

    /// DIALSTACK-WAKE-2: the devices of `data.user_id`'s user, and no one else's.
    static let otherUser = PushRule(R.otherUser) { s, found in
        guard let d = s.delivery, d.type == DialStackEvent.wakeUpType, let user = d.user, user != s.push.user
        else { return }
        found.add(
            "device", expected: "pushes only to the devices of user \(user) (data.user_id)",
            actual: "\(s.push.device), a device of user \(s.push.user), got a push for event \(d.eventId)")
    }

    /// DIALSTACK-PUSH-1: every wake-up carries the webhook's `call_id`: its value as a string anywhere in the
    /// payload (`DialStackPush.carries`), whatever the key. A push tied to its webhook by that value meets it; one
    /// carrying no announced call's ID and naming none under `call_id`/`callId` breaks it, whichever webhook it
    /// answers; one naming a call no webhook announced, or carrying several, is unattributed (noted, not charged).
    static let callId = PushRule(R.callId) { s, found in
        guard case .none(named: nil) = s.tie else { return }
        found.add(
            s.wakeUp.fieldsPath + ".call_id", expected: "the webhook's call_id, as a string under any key",
            actual: s.wakeUp.fields["call_id"].map { "\($0.serialized()) (not a string)" } ?? "absent")
    }

    /// DIALSTACK-DEDUP-1: a redelivered event rings no device a second time.
    static let redelivery = PushRule(R.redelivery) { s, found in
        guard let d = s.delivery, s.timesRung > 1, s.redelivered else { return }
        found.add(
            "device", expected: "one push per device for event \(d.eventId), however often delivered",
            actual: "\(s.push.device) was pushed \(s.timesRung) times for it")
    }

    // MARK: APNs

    static let apnsPushType = apnsRule(R.apnsPushType) { s, found in
        if s.headers["apns-push-type"] != "voip" {
            found.add(
                "headers.apns-push-type", expected: "voip",
                actual: DialStackInvariants.quoted(s.headers["apns-push-type"]))
        }
    }

    static let apnsTopic = apnsRule(R.apnsTopic) { s, found in
        if s.headers["apns-topic"] != s.voipTopic {
            found.add(
                "headers.apns-topic", expected: s.voipTopic, actual: DialStackInvariants.quoted(s.headers["apns-topic"])
            )
        }
    }

    static let apnsPriority = apnsRule(R.apnsPriority) { s, found in
        // APNs acts on 10 when the header is absent.
        if let priority = s.headers["apns-priority"], priority != "10" {
            found.add("headers.apns-priority", expected: "10", actual: DialStackInvariants.quoted(priority))
        }
    }

    static let apnsExpiration = apnsRule(R.apnsExpiration) { s, found in
        let c = s.capture
        let expected = "a Unix time after the push's arrival and at most \(DialStackTiming.pushTTLSeconds) s after it"
        // A time past 2^40 s (year 36812) is not Unix seconds, and would overflow in milliseconds.
        if let raw = s.headers["apns-expiration"], let expiration = try? CheckedNumber.int64(raw, in: 0...(1 << 40)) {
            let aheadMs = expiration * 1000 - c.arrivalMs
            let limitMs = DialStackTiming.pushTTLSeconds * 1000 + DialStackTiming.roundingMarginMs
            if aheadMs <= 0 || aheadMs > limitMs {
                let when = aheadMs <= 0 ? "\(-aheadMs) ms before" : "\(aheadMs) ms after"
                found.add(
                    "headers.apns-expiration", expected: expected,
                    actual: "\(raw), \(when) the push arrived (\(c.arrivalMs) ms)")
            }
        } else {
            found.add(
                "headers.apns-expiration", expected: expected,
                actual: s.headers["apns-expiration"].map { "\(DialStackInvariants.quoted($0)) (not Unix seconds)" }
                    ?? "absent")
        }
    }

    static let apnsCallerFields = apnsRule(R.apnsCallerFields) { s, found in
        guard let delivery = s.wake else { return }
        // Beside the call ID, wherever the payload's shape put it (top level in the seed's example).
        let call = s.wakeUp.callObject
        for name in ["from_number", "from_name", "to_number"] {
            if let problem = DialStackInvariants.fieldProblem(call[name], sent: delivery.data[name]) {
                found.add("body.\(name)", expected: problem.expected, actual: problem.actual)
            }
        }
    }

    /// A rule over VoIP wake-ups only.
    static func apnsRule(
        _ requirement: RequirementID, _ check: @escaping @Sendable (DialStackPushSubject, inout RuleFindings) -> Void
    ) -> PushRule {
        PushRule(requirement) { s, found in if s.wakeUp.platform == .apns { check(s, &found) } }
    }

    // MARK: FCM

    static let fcmDataOnly = fcmRule(R.fcmDataOnly) { s, found in
        let message = s.capture.json?["message"]
        for (path, block) in [
            ("message.notification", message?["notification"]),
            ("message.android.notification", message?["android"]?["notification"]),
        ] {
            if let block { found.add("body.\(path)", expected: "absent (a data message)", actual: block.serialized()) }
        }
    }

    static let fcmPriority = fcmRule(R.fcmPriority) { s, found in
        let priority = s.capture.json?["message"]?["android"]?["priority"]
        if priority?.stringValue?.uppercased() != "HIGH" {
            found.add("body.message.android.priority", expected: "high", actual: priority?.serialized() ?? "absent")
        }
    }

    static let fcmTTL = fcmRule(R.fcmTTL) { s, found in
        let ttl = s.capture.json?["message"]?["android"]?["ttl"]
        let seconds = ttl?.stringValue.flatMap(DialStackInvariants.durationSeconds)
        if seconds.map({ !($0 > 0 && $0 <= Double(DialStackTiming.pushTTLSeconds)) }) ?? true {
            found.add(
                "body.message.android.ttl",
                expected: "a duration above 0 s and at most \(DialStackTiming.pushTTLSeconds) s",
                actual: ttl?.serialized() ?? "absent (FCM keeps the message for up to 4 weeks)")
        }
    }

    static let fcmStrings = fcmRule(R.fcmStrings) { s, found in
        switch s.wakeUp.fields {
        case .object(let members):
            let nonStrings = members.filter { $0.value.stringValue == nil }
            if !nonStrings.isEmpty {
                found.add(
                    s.wakeUp.fieldsPath, expected: "every value a string",
                    actual: nonStrings.map { "\($0.key): \($0.value.serialized())" }.joined(separator: ", "))
            }
        case .null: break  // no data at all: the missing call_id says it
        default:
            found.add(s.wakeUp.fieldsPath, expected: "an object of strings", actual: s.wakeUp.fields.serialized())
        }
    }

    static let fcmFields = fcmRule(R.fcmFields) { s, found in
        guard let delivery = s.wake else { return }
        let fields = s.wakeUp.fields
        if fields["type"]?.stringValue != DialStackEvent.wakeUpType {
            found.add(
                s.wakeUp.fieldsPath + ".type", expected: DialStackEvent.wakeUpType,
                actual: fields["type"]?.serialized() ?? "absent")
        }
        for name in ["from_number", "from_name", "to_number"] {
            // The seed's `from_name || ''`: a webhook without one gives "".
            let sent = delivery.data[name] ?? (name == "from_name" ? "" : nil)
            if let problem = DialStackInvariants.fieldProblem(
                fields[name], sent: sent, emptyWhenMissing: name == "from_name")
            {
                found.add("\(s.wakeUp.fieldsPath).\(name)", expected: problem.expected, actual: problem.actual)
            }
        }
    }

    /// A rule over FCM wake-ups only.
    static func fcmRule(
        _ requirement: RequirementID, _ check: @escaping @Sendable (DialStackPushSubject, inout RuleFindings) -> Void
    ) -> PushRule {
        PushRule(requirement) { s, found in if s.wakeUp.platform == .fcm { check(s, &found) } }
    }
}
