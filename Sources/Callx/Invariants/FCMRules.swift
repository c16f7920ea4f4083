import Conformance
import JSON

/// The invitation and stop signals over FCM HTTP v1 (seed sections "Android: FCM invitation" and
/// "Android: push signals (3.0.1)"), one rule per requirement, each judging FCM pushes only.
///
/// | rule | requirement |
/// |---|---|
/// | POST `/v1/projects/<id>/messages:send` with `authorization: Bearer <OAuth token>` | CALLX-FCM-1 (SHOULD) |
/// | the message targets a registration `token` or `fid` (not a topic or condition) | CALLX-FCM-2 |
/// | invitation: `android.priority` HIGH (any case) | CALLX-FCM-3 |
/// | invitation: no `notification` block anywhere in the message | CALLX-FCM-4 |
/// | `data.callx` a string holding the callx JSON object | CALLX-FCM-5 |
/// | invitation: `android.ttl` whole seconds within [floor((expiresAtMs − arrival)/1000), ceil((expiresAtMs − issuedAtMs)/1000)] | CALLX-FCM-6 |
/// | invitation: `android.ttl` never `0s` | CALLX-FCM-7 |
/// | `call.ended` / `call.accepted` signals: normal priority (absent or NORMAL) | CALLX-FCM-8 |
/// | `call.ended` signals carry a reason | CALLX-FCM-9 |
///
/// A message without `data.callx` is not a Callx message and is not judged (beyond FCM-1 and secrets); the rules
/// after FCM-5 judge only a message whose `data.callx` could be read (`FCMReading`).
enum FCMRules {
    typealias R = CallxRequirement
    typealias PushRule = Rule<CallxPushSubject>

    /// The rules, in the order their findings are reported.
    static let all: [PushRule] =
        [request, callxString, target, priority, dataOnly, ttl, nonZeroTTL]
        + InvitationRules.all.map { $0.on(invitation) } + [signalPriority, endReason]

    /// The invitation a readable FCM invitation carries, with the call it names.
    @Sendable static func invitation(_ s: CallxPushSubject) -> CallxInvitationSubject? {
        guard let reading = s.fcm, reading.type == "call.invited", let callx = reading.callx else { return nil }
        return CallxInvitationSubject(invitation: callx, path: reading.field + "→", call: call(s, callx))
    }

    static func call(_ s: CallxPushSubject, _ callx: JSONValue) -> CallTimeline? {
        s.context.calls[callx["callId"]?.stringValue ?? ""]
    }

    /// A rule over a readable FCM message whose callx `type` is one of `types` (any type when nil).
    static func callxRule(
        _ requirement: RequirementID, types: Set<String>? = nil,
        _ check: @escaping @Sendable (CallxPushSubject, JSONValue, JSONValue, inout RuleFindings) -> Void
    ) -> PushRule {
        PushRule(requirement) { s, found in
            guard let reading = s.fcm, let message = reading.message, let callx = reading.callx else { return }
            if let types, !(reading.type.map(types.contains) ?? false) { return }
            check(s, message, callx, &found)
        }
    }

    // MARK: Request and message

    /// CALLX-FCM-1: POST to `messages:send` with an OAuth bearer token.
    static let request = PushRule(R.fcmRequest) { s, found in
        let push = s.push
        guard push.kind == .fcm else { return }
        if let method = push.method, method != "POST" { found.add("method", expected: "POST", actual: method) }
        if let path = push.path, !(path.hasPrefix("/v1/projects/") && path.hasSuffix("/messages:send")) {
            found.add("path", expected: "/v1/projects/<project>/messages:send", actual: path)
        }
        if let headers = push.headers {
            let auth = headers["authorization"]
            if !(auth.map { $0 == "<redacted>" || $0.lowercased().hasPrefix("bearer ") } ?? false) {
                found.add(
                    "headers.authorization", expected: "Bearer <OAuth access token>",
                    actual: auth == nil ? "absent" : "another scheme")
            }
        }
    }

    /// CALLX-FCM-5: a message object whose `data.callx` is a string holding the callx JSON object.
    static let callxString = PushRule(R.fcmCallxString) { s, found in
        guard let problem = s.fcm?.problem else { return }
        found.add(problem.field, expected: problem.expected, actual: problem.actual)
    }

    /// CALLX-FCM-2: the message targets one installation (`token`, or `fid` as firebase-admin 7.x writes it).
    static let target = callxRule(R.fcmTarget) { _, message, _, found in
        let target = ["token", "fid", "topic", "condition"].first { message[$0] != nil }
        guard
            !(target.map(PushDocument.addressesInstallation) ?? false)
                || (target.flatMap { message[$0]?.stringValue } ?? "").isEmpty
        else { return }
        found.add(
            "message.\(target ?? "token")", expected: "the installation's registration token (token or fid)",
            actual: target.map {
                PushDocument.addressesInstallation($0) ? Describe.value(message[$0]) : "a \($0) target"
            } ?? "absent")
    }

    // MARK: The invitation

    /// CALLX-FCM-3: an invitation goes at HIGH priority.
    static let priority = callxRule(R.fcmPriority, types: ["call.invited"]) { _, message, _, found in
        let priority = message["android"]?["priority"]
        if priority?.stringValue?.uppercased() != "HIGH" {
            found.add(
                "message.android.priority", expected: "\"HIGH\"",
                actual: priority == nil ? "absent (FCM then uses NORMAL)" : Describe.value(priority))
        }
    }

    /// CALLX-FCM-4: an invitation is data-only: no `notification` block outside the data maps.
    static let dataOnly = callxRule(R.fcmDataOnly, types: ["call.invited"]) { _, message, _, found in
        for path in notificationPaths(message, at: "message") {
            found.add(path, expected: "no notification block (data-only)", actual: "present")
        }
    }

    /// Paths of every `notification` member of the message outside its data maps.
    static func notificationPaths(_ value: JSONValue, at path: String) -> [String] {
        guard case .object(let members) = value else { return [] }
        var out: [String] = []
        for (key, member) in members where key != "data" {
            if key == "notification" { out.append(path + "." + key) }
            out += notificationPaths(member, at: path + "." + key)
        }
        return out
    }

    /// CALLX-FCM-6: the invitation's `android.ttl`, in whole seconds, within the seconds left (`FCMTTL`).
    static let ttl = callxRule(R.fcmTTL, types: ["call.invited"]) { s, message, callx, found in
        if let finding = FCMTTL.finding(s.push, android: message["android"], callx: callx, call: call(s, callx)),
            !finding.zero
        {
            found.add(FCMTTL.path, expected: finding.expected, actual: finding.actual)
        }
    }

    /// CALLX-FCM-7: the invitation's `android.ttl` is never `0s`.
    static let nonZeroTTL = callxRule(R.fcmNonZeroTTL, types: ["call.invited"]) { s, message, callx, found in
        if let finding = FCMTTL.finding(s.push, android: message["android"], callx: callx, call: call(s, callx)),
            finding.zero
        {
            found.add(FCMTTL.path, expected: finding.expected, actual: finding.actual)
        }
    }

    // MARK: Stop signals

    /// CALLX-FCM-8: `call.ended` and `call.accepted` signals go at normal priority.
    static let signalPriority = callxRule(R.fcmSignalPriority, types: ["call.ended", "call.accepted"]) {
        _, message, _, found in
        if let priority = message["android"]?["priority"], priority.stringValue?.uppercased() != "NORMAL" {
            found.add(
                "message.android.priority", expected: "normal priority (\"NORMAL\" or absent)",
                actual: Describe.value(priority))
        }
    }

    /// CALLX-FCM-9: a `call.ended` signal carries its reason.
    static let endReason = callxRule(R.fcmEndReason, types: ["call.ended"]) { s, _, callx, found in
        if callx["reason"]?.stringValue == nil {
            found.add(
                (s.fcm?.field ?? "message.data.callx") + "→reason", expected: "a reason (e.g. \"remoteEnded\")",
                actual: Describe.value(callx["reason"]))
        }
    }
}
