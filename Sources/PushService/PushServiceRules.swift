import Conformance
import Foundation
import HTTP
import JSON
import PushMocks

/// One push with what it is judged against: the notification it answers, what kind of push it must be, and what
/// the pushes before it said.
struct PushServicePushSubject: Sendable {
    var capture: Capture
    var push: PushServicePush
    var device: PushServiceDevice
    /// The notification the push answers (`PushServiceAttribution`), if any.
    var notification: PushServiceNotification?
    /// `incoming_call`, `call_ended` or `notification`.
    var kind: String
    /// Whether it went to the device's VoIP token.
    var toVoIP: Bool
    /// An earlier refusal of its VoIP token as dead (when it went to the VoIP token).
    var deadToken: Capture?
    /// Accepted call pushes of this type, device, call and request so far, this one included (0: not such a push).
    var timesAccepted: Int
    /// The generated call ID an earlier push of the same incoming call carried, and its device.
    var firstCallId: (id: String, device: String)?
    var notifications: [PushServiceNotification]
    var bundleId: String
    var voipTopic: String

    var headers: HTTPHeaders { capture.headers }
    var isCallPush: Bool { notification != nil && kind != "notification" }
    /// A normal notification's push of this platform (its mapping is judged).
    func isNotification(on mock: MockProviderID) -> Bool {
        capture.mock == mock && notification != nil && kind != PushServiceNotification.incomingType
            && kind != PushServiceNotification.endedType
    }
    /// Where the seed's payload keys are: the APNs body, or the FCM data the app receives (`FCMAppData`).
    var payloadPrefix: String { push.fieldsPath }
}

/// The push-service profile's rules over every push, one per requirement: a call never as an alert, never to a
/// removed or dead token, no duplicate per device and call, no incoming call after its ring ended, the seed's
/// payload (all strings, its keys), and the mapping of a normal notification.
enum PushServiceRules {
    typealias R = PushServiceRequirement
    typealias N = PushServiceNotification
    typealias PushRule = Rule<PushServicePushSubject>

    /// The rules, in the order their findings are reported.
    static let all: [PushRule] = [
        removed, deadVoIPDeleted, noDuplicate, strings, keys, endedSameId, generatedId, noLateCall, callVoIP,
        callPriority, endedNotVoIP, alert, ttl, collapse, badge, channel, androidDataOnly, androidPriority,
        androidEndedPriority, sandbox,
        tokenAuth,
    ]

    static func quoted(_ value: String?) -> String { PushServiceInvariants.quoted(value) }

    // MARK: Which devices

    static let removed = PushRule(R.removed) { s, found in
        guard let removed = s.device.removedAtMs, let n = s.notification, n.sentAtMs >= removed else { return }
        found.add(
            "deviceToken", expected: "no push to \(s.device.name): it was removed before the notification",
            actual: "a push")
    }

    static let deadVoIPDeleted = PushRule(R.deadVoIPDeleted) { s, found in
        guard let dead = s.deadToken, s.notification.map({ $0.sentAtMs > dead.arrivalMs }) ?? true else { return }
        found.add(
            "deviceToken", expected: "no push to the VoIP token APNs refused as dead (push #\(dead.sequence))",
            actual: "push #\(s.capture.sequence)")
    }

    static let noDuplicate = PushRule(R.noDuplicate) { s, found in
        guard s.timesAccepted == 2, let callId = s.push.callId else { return }
        found.add(
            "device", expected: "one \(s.push.type ?? "") push per device for call \(callId) per request",
            actual: "\(s.device.name) got it twice")
    }

    // MARK: A call's payload

    static let strings = PushRule(R.strings) { s, found in
        guard s.isCallPush else { return }
        switch s.push.fields {
        case .object(let members):
            let nonStrings = members.filter { $0.value.stringValue == nil }
            if !nonStrings.isEmpty {
                found.add(
                    s.payloadPrefix, expected: "every value a string",
                    actual: nonStrings.map { "\($0.key): \($0.value.serialized())" }.joined(separator: ", "))
            }
        default:
            found.add(s.payloadPrefix, expected: "an object of strings", actual: s.push.fields.serialized())
        }
    }

    /// PUSHSVC-PAYLOAD-2: the seed's keys with the request's values (a wrong type is PUSHSVC-PAYLOAD-1's; here only
    /// the text counts).
    static let keys = PushRule(R.keys) { s, found in
        guard s.isCallPush, let n = s.notification else { return }
        let p = s.push
        let text = PushServiceInvariants.text
        func expectField(_ key: String, _ want: String?) {
            guard let want, text(p.fields[key]) != want else { return }
            found.add(
                "\(s.payloadPrefix).\(key)", expected: JSONValue.string(want).serialized(),
                actual: p.fields[key]?.serialized() ?? "absent")
        }
        expectField("type", s.kind)
        if let given = n.givenCallId, s.kind != N.endedType, p.fields["call_id"].flatMap(text) != given {
            found.add(
                "\(s.payloadPrefix).call_id", expected: "\"\(given)\" (the request's call.id)",
                actual: p.fields["call_id"]?.serialized() ?? "absent")
        }
        let call = n.call ?? .null
        if s.kind == N.incomingType {
            expectField("caller_name", text(call["caller_name"]))
            expectField("caller_handle", text(call["handle"]))
            expectField("caller_avatar", text(call["avatar"]))
            expectField("is_video", text(call["is_video"]).map { $0 == "true" ? "true" : "false" } ?? nil)
            expectField("timeout", text(call["timeout"]))
        }
        for member in n.body["data"]?.objectValue ?? [] {
            expectField(member.key, text(member.value))
        }
        if s.capture.mock == .fcm {
            expectField("title", n.heading)
            expectField("body", n.content)
        }
    }

    /// PUSHSVC-CALL-4: a call's `ended` push carries the request's call ID.
    static let endedSameId = PushRule(R.endedSameId) { s, found in
        guard s.isCallPush, s.kind == N.endedType, let given = s.notification?.givenCallId,
            s.push.fields["call_id"].flatMap(PushServiceInvariants.text) != given
        else { return }
        found.add(
            "\(s.payloadPrefix).call_id", expected: "\"\(given)\" (the request's call.id)",
            actual: s.push.fields["call_id"]?.serialized() ?? "absent")
    }

    /// PUSHSVC-CALL-3: an incoming call without `call.id` gets one generated UUID, the same on every device.
    static let generatedId = PushRule(R.generatedId) { s, found in
        guard s.isCallPush, s.kind == N.incomingType, s.notification?.givenCallId == nil else { return }
        let callId = s.push.fields["call_id"].flatMap(PushServiceInvariants.text)
        if let callId, UUID(uuidString: callId) != nil {
            if let first = s.firstCallId, first.id != callId {
                found.add(
                    "\(s.payloadPrefix).call_id",
                    expected: "\"\(first.id)\", the id \(first.device) got for the same call", actual: "\"\(callId)\"")
            }
        } else {
            found.add(
                "\(s.payloadPrefix).call_id", expected: "a generated UUID (call.id was empty)",
                actual: s.push.fields["call_id"]?.serialized() ?? "absent")
        }
    }

    static let noLateCall = PushRule(R.noLateCall) { s, found in
        guard let late = PushServiceInvariants.lateCall(s.capture, s.push, s.notifications, tiedTo: s.notification)
        else { return }
        found.add(late.field, expected: late.expected, actual: late.actual)
    }

    // MARK: How a call goes

    static let callVoIP = PushRule(R.callVoIP) { s, found in
        guard s.capture.mock == .apns, s.kind == N.incomingType else { return }
        if s.headers["apns-push-type"] != "voip" || !s.toVoIP {
            found.add(
                "headers.apns-push-type", expected: "voip, to the device's voipToken",
                actual: "\(quoted(s.headers["apns-push-type"])) to its \(s.toVoIP ? "VoIP" : "alert") token")
        }
        if s.headers["apns-topic"] != s.voipTopic {
            found.add("headers.apns-topic", expected: s.voipTopic, actual: quoted(s.headers["apns-topic"]))
        }
    }

    static let callPriority = PushRule(R.callPriority) { s, found in
        guard s.capture.mock == .apns, s.kind == N.incomingType, let priority = s.headers["apns-priority"],
            priority != "10"
        else { return }
        found.add("headers.apns-priority", expected: "10", actual: quoted(priority))
    }

    static let endedNotVoIP = PushRule(R.endedNotVoIP) { s, found in
        guard s.capture.mock == .apns, s.kind == N.endedType, s.headers["apns-push-type"] == "voip" || s.toVoIP
        else { return }
        found.add(
            "headers.apns-push-type",
            expected: "alert or background to the alert token (a VoIP push makes CallKit ring again)",
            actual: "\(quoted(s.headers["apns-push-type"])) to its \(s.toVoIP ? "VoIP" : "alert") token")
    }

    static let androidDataOnly = PushRule(R.androidDataOnly) { s, found in
        guard s.capture.mock == .fcm, s.kind == N.incomingType else { return }
        let message = s.capture.json?["message"]
        for (path, block) in [
            ("message.notification", message?["notification"]),
            ("message.android.notification", message?.value(atPath: "android.notification")),
        ] {
            if let block { found.add("body.\(path)", expected: "absent (a data message)", actual: block.serialized()) }
        }
    }

    static let androidPriority = PushRule(R.androidPriority) { s, found in
        highPriority(s, ofKind: N.incomingType, found: &found)
    }

    /// The seed names no priority for an ended call: its own rule, a SHOULD.
    static let androidEndedPriority = PushRule(R.androidEndedPriority) { s, found in
        highPriority(s, ofKind: N.endedType, found: &found)
    }

    /// Adds a finding when an FCM message of `kind` does not carry `android.priority` high.
    private static func highPriority(_ s: PushServicePushSubject, ofKind kind: String, found: inout RuleFindings) {
        guard s.capture.mock == .fcm, s.kind == kind else { return }
        let priority = s.capture.json?["message"]?.value(atPath: "android.priority")
        if priority?.stringValue?.uppercased() != "HIGH" {
            found.add("body.message.android.priority", expected: "high", actual: priority?.serialized() ?? "absent")
        }
    }

    // MARK: A normal notification's mapping

    static let alert = PushRule(R.alert) { s, found in
        guard let n = s.notification else { return }
        if s.isNotification(on: .apns) {
            let h = s.headers
            if h["apns-push-type"] != "alert" || s.toVoIP || h["apns-topic"] != s.bundleId {
                found.add(
                    "headers", expected: "apns-push-type alert, topic \(s.bundleId), to the alert token",
                    actual: "\(quoted(h["apns-push-type"])), topic \(quoted(h["apns-topic"])), to its "
                        + "\(s.toVoIP ? "VoIP" : "alert") token")
            }
            // Apple documents aps.alert as a dictionary or, for the body alone, a string.
            let alert = s.capture.json?.value(atPath: "aps.alert")
            let alertBody = alert?.stringValue ?? alert?["body"]?.stringValue
            if let title = n.heading, alert?["title"]?.stringValue != title {
                found.add(
                    "body.aps.alert.title", expected: "\"\(title)\"", actual: alert?["title"]?.serialized() ?? "absent")
            }
            if let body = n.content, alertBody != body {
                found.add(
                    "body.aps.alert.body", expected: "\"\(body)\" (or aps.alert that string)",
                    actual: (alert?.stringValue != nil ? alert : alert?["body"])?.serialized() ?? "absent")
            }
        } else if s.isNotification(on: .fcm) {
            // FCM v1 shows message.notification, or android.notification (which overrides it on Android).
            let message = s.capture.json?["message"]
            func shown(_ field: String) -> JSONValue? {
                message?.value(atPath: "android.notification.\(field)")
                    ?? message?.value(atPath: "notification.\(field)")
            }
            for (field, want) in [("title", n.heading), ("body", n.content)] {
                if let want, shown(field)?.stringValue != want {
                    found.add(
                        "body.message.notification.\(field)",
                        expected: "\"\(want)\" (in message.notification or message.android.notification)",
                        actual: shown(field)?.serialized() ?? "absent")
                }
            }
        }
    }

    static let ttl = PushRule(R.ttl) { s, found in
        guard let n = s.notification, let ttl = n.body["ttl"]?.int64Value, abs(ttl) <= 1 << 40 else { return }
        let c = s.capture
        if s.isNotification(on: .apns) {
            let margin = PushServiceInvariants.marginSeconds
            let lo = c.arrivalMs / 1000 + ttl - margin - (c.arrivalMs - n.sentAtMs) / 1000
            let hi = c.arrivalMs / 1000 + ttl + margin
            let got = s.headers["apns-expiration"].flatMap { Int64($0) }
            if got.map({ $0 < lo || $0 > hi }) ?? true {
                found.add(
                    "headers.apns-expiration", expected: "about now + \(ttl) s (\(lo)…\(hi))",
                    actual: quoted(s.headers["apns-expiration"]))
            }
        } else if s.isNotification(on: .fcm) {
            // A duration, judged by value: a service may send the seconds left at send ("86399.999064000s", as
            // firebase-admin writes a fractional timedelta), within the window the APNs half allows.
            let android = c.json?["message"]?["android"]
            let margin = PushServiceInvariants.marginSeconds
            let lo = ttl - margin - (c.arrivalMs - n.sentAtMs) / 1000
            let hi = ttl + margin
            let got = android?["ttl"]?.stringValue.flatMap(FCMDuration.seconds)
            if got.map({ $0 < Double(lo) || $0 > Double(hi) }) ?? true {
                found.add(
                    "body.message.android.ttl", expected: "\"\(ttl)s\" or the seconds left at send (\(lo)…\(hi) s)",
                    actual: android?["ttl"]?.serialized() ?? "absent")
            }
        }
    }

    static let collapse = PushRule(R.collapse) { s, found in
        guard let collapse = s.notification?.body["collapse_id"]?.stringValue else { return }
        if s.isNotification(on: .apns), s.headers["apns-collapse-id"] != collapse {
            found.add(
                "headers.apns-collapse-id", expected: "\"\(collapse)\"", actual: quoted(s.headers["apns-collapse-id"]))
        } else if s.isNotification(on: .fcm) {
            let key = s.capture.json?["message"]?["android"]?["collapse_key"]
            if key?.stringValue != collapse {
                found.add(
                    "body.message.android.collapse_key", expected: "\"\(collapse)\"",
                    actual: key?.serialized() ?? "absent")
            }
        }
    }

    static let badge = PushRule(R.badge) { s, found in
        guard s.isNotification(on: .apns), let badge = s.notification?.body["ios_badgeCount"]?.int64Value else {
            return
        }
        let got = s.capture.json?.value(atPath: "aps.badge")
        if got?.int64Value != badge {
            found.add("body.aps.badge", expected: "\(badge)", actual: got?.serialized() ?? "absent")
        }
    }

    static let channel = PushRule(R.channel) { s, found in
        guard s.isNotification(on: .fcm), let channel = s.notification?.body["android_channel_id"]?.stringValue
        else { return }
        let got = s.capture.json?["message"]?["android"]?.value(atPath: "notification.channel_id")
        if got?.stringValue != channel {
            found.add(
                "body.message.android.notification.channel_id", expected: "\"\(channel)\"",
                actual: got?.serialized() ?? "absent")
        }
    }

    // MARK: How APNs is reached

    static let sandbox = PushRule(R.sandbox) { s, found in
        let c = s.capture
        guard c.mock == .apns, s.device.sandbox != (c.environment == .sandbox) else { return }
        found.add(
            "host", expected: s.device.sandbox ? "api.sandbox.push.apple.com" : "api.push.apple.com",
            actual: c.environment == .sandbox ? "the sandbox host" : "the production host")
    }

    static let tokenAuth = PushRule(R.tokenAuth) { s, found in
        guard s.capture.mock == .apns else { return }
        let auth = s.headers["authorization"] ?? ""
        if !auth.lowercased().hasPrefix("bearer ") || auth.split(separator: ".").count != 3 {
            found.add(
                "headers.authorization", expected: "bearer <provider JWT> (the one .p8 key, VoIP too)",
                actual: auth.isEmpty ? "absent (a certificate connection?)" : ScenarioRun.scheme(auth) + "<redacted>")
        }
    }
}
