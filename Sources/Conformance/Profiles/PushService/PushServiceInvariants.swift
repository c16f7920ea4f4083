import Foundation
import JSON
import PushMocks

/// One push the invariants judge, with the scenario device it reached.
struct PushServiceJudgedPush: Sendable {
    var capture: Capture
    var device: PushServiceDevice
}

/// The push-service rules over every push a scenario run's devices got, as a pure function of the captures, the
/// devices and the notifications sent: a call never as an alert, never to a removed or dead token, no duplicate
/// per device and call, no incoming call after its ring ended, the seed's payload (all strings, its keys), and the mapping of a normal notification.
enum PushServiceInvariants {
    typealias R = PushServiceRequirement
    typealias N = PushServiceNotification

    /// A backend may round its clock either way before adding a ttl.
    static let marginSeconds: Int64 = 2

    static func check(
        _ pushes: [PushServiceJudgedPush], notifications: [PushServiceNotification], bundleId: String,
        voipTopic: String
    ) -> [Violation] {
        var out: [Violation] = []
        var accepted: [String: Int] = [:]
        // Per notification, the call_id its pushes carry (a generated one must be the same everywhere).
        var callIds: [String: (id: String, device: String)] = [:]
        let all = pushes.map(\.capture)
        for push in pushes.sorted(by: { $0.capture.sequence < $1.capture.sequence }) {
            let c = push.capture
            guard let p = PushServicePush(c) else { continue }
            let d = push.device
            func fail(_ requirement: RequirementID, _ field: String, _ expected: String, _ actual: String) {
                out.append(
                    Violation(requirement, field, expected: expected, actual: actual, capture: c.sequence))
            }
            let n = notification(of: p, arrivalMs: c.arrivalMs, notifications)
            let token = PushServiceCounts.token(of: c)?.lowercased()
            let toVoIP = token != nil && token == d.voipToken?.lowercased()
            if let removed = d.removedAtMs, let n, n.sentAtMs >= removed {
                fail(R.removed, "deviceToken", "no push to \(d.name): it was removed before the notification", "a push")
            }
            if toVoIP,
                let dead = all.first(where: {
                    PushServiceCounts.token(of: $0)?.lowercased() == token && PushServiceCounts.isDeadToken($0)
                        && $0.sequence < c.sequence
                }), n.map({ $0.sentAtMs > dead.arrivalMs }) ?? true
            {
                fail(
                    R.deadVoIPDeleted, "deviceToken",
                    "no push to the VoIP token APNs refused as dead (push #\(dead.sequence))", "push #\(c.sequence)")
            }
            if c.outcome.isAccepted, p.isCall, let callId = p.callId {
                // Per request: an app server may well send `ended` twice (with and without a missed-call text).
                let key = "\(d.name) \(p.type ?? "") \(callId) \(n?.marker ?? "")"
                accepted[key, default: 0] += 1
                if accepted[key]! == 2 {
                    fail(
                        R.noDuplicate, "device", "one \(p.type ?? "") push per device for call \(callId) per request",
                        "\(d.name) got it twice")
                }
            }
            let kind =
                n.map { n -> String in
                    guard n.isCall else { return "notification" }
                    return n.action == "ended" ? N.endedType : N.incomingType
                } ?? (p.type ?? "notification")
            if let n, kind != "notification" {
                out += callViolations(c, p, d, n, kind: kind, callIds: &callIds)
            }
            if let late = lateCall(c, p, notifications) { out.append(late) }
            switch (c.mock, kind) {
            case (.apns, N.incomingType):
                if c.headers["apns-push-type"] != "voip" || !toVoIP {
                    fail(
                        R.callVoIP, "headers.apns-push-type", "voip, to the device's voipToken",
                        "\(quoted(c.headers["apns-push-type"])) to its \(toVoIP ? "VoIP" : "alert") token")
                }
                if c.headers["apns-topic"] != voipTopic {
                    fail(R.callVoIP, "headers.apns-topic", voipTopic, quoted(c.headers["apns-topic"]))
                }
                if let priority = c.headers["apns-priority"], priority != "10" {
                    fail(R.callPriority, "headers.apns-priority", "10", quoted(priority))
                }
            case (.apns, N.endedType):
                if c.headers["apns-push-type"] == "voip" || toVoIP {
                    fail(
                        R.endedNotVoIP, "headers.apns-push-type",
                        "alert or background to the alert token (a VoIP push makes CallKit ring again)",
                        "\(quoted(c.headers["apns-push-type"])) to its \(toVoIP ? "VoIP" : "alert") token")
                }
            case (.apns, _):
                if let n { out += alertViolations(c, n, toVoIP: toVoIP, bundleId: bundleId) }
            case (.fcm, N.incomingType), (.fcm, N.endedType):
                let message = c.json?["message"]
                if kind == N.incomingType {
                    for (path, block) in [
                        ("message.notification", message?["notification"]),
                        ("message.android.notification", message?.value(atPath: "android.notification")),
                    ] {
                        if let block {
                            fail(R.androidDataOnly, "body.\(path)", "absent (a data message)", block.serialized())
                        }
                    }
                }
                let priority = message?.value(atPath: "android.priority")
                if priority?.stringValue?.uppercased() != "HIGH" {
                    fail(R.androidPriority, "body.message.android.priority", "high", priority?.serialized() ?? "absent")
                }
            case (.fcm, _):
                if let n { out += fcmNotificationViolations(c, n) }
            default: break
            }
            if c.mock == .apns {
                if d.sandbox != (c.environment == .sandbox) {
                    fail(
                        R.sandbox, "host", d.sandbox ? "api.sandbox.push.apple.com" : "api.push.apple.com",
                        c.environment == .sandbox ? "the sandbox host" : "the production host")
                }
                let auth = c.headers["authorization"] ?? ""
                if !auth.lowercased().hasPrefix("bearer ") || auth.split(separator: ".").count != 3 {
                    fail(
                        R.tokenAuth, "headers.authorization", "bearer <provider JWT> (the one .p8 key, VoIP too)",
                        auth.isEmpty ? "absent (a certificate connection?)" : ScenarioRun.scheme(auth) + "<redacted>")
                }
            }
        }
        return out
    }

    /// The notification a push answers: the one its marker names, else the latest sent before it arrived.
    static func notification(of p: PushServicePush, arrivalMs: Int64, _ all: [PushServiceNotification])
        -> PushServiceNotification?
    {
        if let marker = p.marker, let n = all.first(where: { $0.marker == marker }) { return n }
        return all.last { $0.sentAtMs <= arrivalMs && $0.accepted }
    }

    // MARK: Calls

    /// How long after its ring's end an incoming-call push may still arrive: one a service takes from its queue just
    /// before the end still has to reach the provider (milliseconds on loopback, seconds on a loaded runner). The
    /// late pushes this rule exists for came 15–95 s after the ring.
    static let lateCallMarginMs: Int64 = 5_000

    /// PUSHSVC-CALL-8: an `incoming_call` push that reached the provider after its call stopped ringing. The push is
    /// tied to its request by content — the request's `call.id` as the push's `call_id`, or ringcheck's marker for a
    /// generated id — never by time; that request's ring ended at the latest `timeout` seconds (the request's, else
    /// the `timeout` the push itself carries) after its answer came back. A push tied to no request is not judged.
    static func lateCall(_ c: Capture, _ p: PushServicePush, _ all: [N]) -> Violation? {
        guard p.type == N.incomingType else { return nil }
        let pushed = p.fields["timeout"]?.stringValue.flatMap { Int64($0) }.flatMap(N.usableRing)
        var latestEnd: Int64?
        for n in all where n.accepted && n.action == "incoming" {
            let same =
                n.givenCallId.map { $0.lowercased() == p.callId?.lowercased() }
                ?? (p.marker.map { $0 == n.marker } ?? false)
            guard same, let seconds = n.ringSeconds ?? pushed else { continue }
            let end = (n.answeredAtMs ?? n.sentAtMs) + seconds * 1000
            latestEnd = max(latestEnd ?? end, end)
        }
        guard let end = latestEnd, c.arrivalMs > end + lateCallMarginMs else { return nil }
        let late = Double(c.arrivalMs - end) / 1000
        return Violation(
            R.noLateCall, "arrival",
            expected: "no incoming_call push for call \(p.callId ?? "?") after its ring (timeout) ended "
                + "(+ \(lateCallMarginMs / 1000) s for the trip)",
            actual: "push #\(c.sequence) arrived \(String(format: "%.1f", late)) s after the ring ended",
            capture: c.sequence)
    }

    static func callViolations(
        _ c: Capture, _ p: PushServicePush, _ d: PushServiceDevice, _ n: PushServiceNotification, kind: String,
        callIds: inout [String: (id: String, device: String)]
    ) -> [Violation] {
        var out: [Violation] = []
        func fail(_ requirement: RequirementID, _ field: String, _ expected: String, _ actual: String) {
            out.append(
                Violation(requirement, field, expected: expected, actual: actual, capture: c.sequence))
        }
        let prefix = c.mock == .apns ? "body" : "body.message.data"
        switch p.fields {
        case .object(let members):
            let nonStrings = members.filter { $0.value.stringValue == nil }
            if !nonStrings.isEmpty {
                fail(
                    R.strings, prefix, "every value a string",
                    nonStrings.map { "\($0.key): \($0.value.serialized())" }.joined(separator: ", "))
            }
        default:
            fail(R.strings, prefix, "an object of strings", p.fields.serialized())
        }
        let call = n.call ?? .null
        func text(_ v: JSONValue?) -> String? {
            switch v {
            case .string(let s)?: return s
            case .number(let s)?: return s
            case .bool(let b)?: return b ? "true" : "false"
            default: return nil
            }
        }
        func expectField(_ key: String, _ want: String?) {
            guard let want else { return }
            let got = p.fields[key]
            // A wrong type is PUSHSVC-PAYLOAD-1's; here only the text counts.
            if text(got) != want {
                fail(R.keys, "\(prefix).\(key)", JSONValue.string(want).serialized(), got?.serialized() ?? "absent")
            }
        }
        expectField("type", kind)
        let callId = p.fields["call_id"].flatMap(text)
        if let given = n.givenCallId {
            if callId != given {
                fail(
                    kind == N.endedType ? R.endedSameId : R.keys, "\(prefix).call_id",
                    "\"\(given)\" (the request's call.id)", p.fields["call_id"]?.serialized() ?? "absent")
            }
        } else if kind == N.incomingType {
            if let callId, UUID(uuidString: callId) != nil {
                if let first = callIds[n.marker], first.id != callId {
                    fail(
                        R.generatedId, "\(prefix).call_id",
                        "\"\(first.id)\", the id \(first.device) got for the same call",
                        "\"\(callId)\"")
                } else {
                    callIds[n.marker] = (callId, d.name)
                }
            } else {
                fail(
                    R.generatedId, "\(prefix).call_id", "a generated UUID (call.id was empty)",
                    p.fields["call_id"]?.serialized() ?? "absent")
            }
        }
        if kind == N.incomingType {
            expectField("caller_name", text(call["caller_name"]))
            expectField("caller_handle", text(call["handle"]))
            expectField("caller_avatar", text(call["avatar"]))
            expectField("is_video", text(call["is_video"]).map { $0 == "true" ? "true" : "false" } ?? nil)
            expectField("timeout", text(call["timeout"]))
        }
        for member in n.body["data"]?.objectValue ?? [] {
            expectField(member.key, text(member.value))
        }
        if c.mock == .fcm {
            expectField("title", n.heading)
            expectField("body", n.content)
        }
        return out
    }

    // MARK: Normal notifications

    static func alertViolations(_ c: Capture, _ n: PushServiceNotification, toVoIP: Bool, bundleId: String)
        -> [Violation]
    {
        var out: [Violation] = []
        func fail(_ requirement: RequirementID, _ field: String, _ expected: String, _ actual: String) {
            out.append(
                Violation(requirement, field, expected: expected, actual: actual, capture: c.sequence))
        }
        let h = c.headers
        if h["apns-push-type"] != "alert" || toVoIP || h["apns-topic"] != bundleId {
            fail(
                R.alert, "headers", "apns-push-type alert, topic \(bundleId), to the alert token",
                "\(quoted(h["apns-push-type"])), topic \(quoted(h["apns-topic"])), to its \(toVoIP ? "VoIP" : "alert") token"
            )
        }
        // Apple documents aps.alert as a dictionary or, for the body alone, a string.
        let alert = c.json?.value(atPath: "aps.alert")
        let alertBody = alert?.stringValue ?? alert?["body"]?.stringValue
        if let title = n.heading, alert?["title"]?.stringValue != title {
            fail(R.alert, "body.aps.alert.title", "\"\(title)\"", alert?["title"]?.serialized() ?? "absent")
        }
        if let body = n.content, alertBody != body {
            fail(
                R.alert, "body.aps.alert.body", "\"\(body)\" (or aps.alert that string)",
                (alert?.stringValue != nil ? alert : alert?["body"])?.serialized() ?? "absent")
        }
        if let ttl = n.body["ttl"]?.int64Value, abs(ttl) <= 1 << 40 {
            let lo = c.arrivalMs / 1000 + ttl - marginSeconds - (c.arrivalMs - n.sentAtMs) / 1000
            let hi = c.arrivalMs / 1000 + ttl + marginSeconds
            let got = h["apns-expiration"].flatMap { Int64($0) }
            if got.map({ $0 < lo || $0 > hi }) ?? true {
                fail(
                    R.ttl, "headers.apns-expiration", "about now + \(ttl) s (\(lo)…\(hi))",
                    quoted(h["apns-expiration"]))
            }
        }
        if let collapse = n.body["collapse_id"]?.stringValue, h["apns-collapse-id"] != collapse {
            fail(R.collapse, "headers.apns-collapse-id", "\"\(collapse)\"", quoted(h["apns-collapse-id"]))
        }
        if let badge = n.body["ios_badgeCount"]?.int64Value {
            let got = c.json?.value(atPath: "aps.badge")
            if got?.int64Value != badge {
                fail(R.badge, "body.aps.badge", "\(badge)", got?.serialized() ?? "absent")
            }
        }
        return out
    }

    static func fcmNotificationViolations(_ c: Capture, _ n: PushServiceNotification) -> [Violation] {
        var out: [Violation] = []
        func fail(_ requirement: RequirementID, _ field: String, _ expected: String, _ actual: String) {
            out.append(
                Violation(requirement, field, expected: expected, actual: actual, capture: c.sequence))
        }
        // FCM v1 shows message.notification, or android.notification (which overrides it on Android).
        let message = c.json?["message"]
        func shown(_ field: String) -> JSONValue? {
            message?.value(atPath: "android.notification.\(field)") ?? message?.value(atPath: "notification.\(field)")
        }
        for (field, want) in [("title", n.heading), ("body", n.content)] {
            if let want, shown(field)?.stringValue != want {
                fail(
                    R.alert, "body.message.notification.\(field)",
                    "\"\(want)\" (in message.notification or message.android.notification)",
                    shown(field)?.serialized() ?? "absent")
            }
        }
        let android = message?["android"]
        if let ttl = n.body["ttl"]?.int64Value, abs(ttl) <= 1 << 40 {
            let got = android?["ttl"]?.stringValue
            if got != "\(ttl)s" {
                fail(R.ttl, "body.message.android.ttl", "\"\(ttl)s\"", android?["ttl"]?.serialized() ?? "absent")
            }
        }
        if let collapse = n.body["collapse_id"]?.stringValue, android?["collapse_key"]?.stringValue != collapse {
            fail(
                R.collapse, "body.message.android.collapse_key", "\"\(collapse)\"",
                android?["collapse_key"]?.serialized() ?? "absent")
        }
        if let channel = n.body["android_channel_id"]?.stringValue {
            let got = android?.value(atPath: "notification.channel_id")
            if got?.stringValue != channel {
                fail(
                    R.channel, "body.message.android.notification.channel_id", "\"\(channel)\"",
                    got?.serialized() ?? "absent")
            }
        }
        return out
    }

    static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "absent" }
}
