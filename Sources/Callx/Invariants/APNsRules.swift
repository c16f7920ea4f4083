import Conformance
import HTTP
import JSON

/// The VoIP invitation over APNs (seed section "iOS: APNs VoIP invitation"), one rule per requirement, each
/// judging APNs pushes only.
///
/// | rule | requirement |
/// |---|---|
/// | POST to `/3/device/<token>` over HTTP/2 | CALLX-APNS-1 |
/// | `apns-push-type: voip` | CALLX-APNS-2 |
/// | `apns-topic` the bundle ID + `.voip` | CALLX-APNS-3 |
/// | `apns-priority: 10` (absent is SHOULD: APNs then uses 10) | CALLX-APNS-4 |
/// | `apns-expiration: 0` | CALLX-APNS-5 |
/// | a JSON body with an empty `aps` and the invitation under `callx` | CALLX-APNS-6 |
/// | only invitations: any other `callx` (or none) over APNs | CALLX-APNS-8 |
/// | `authorization: bearer <JWT>` | CALLX-APNS-9 |
/// | the invitation's fields | CALLX-INV-* (see `InvitationRules`) |
///
/// The header rules of the invitation judge only an invitation with a JSON object body, and only when the push
/// has headers (a bare body has none).
enum APNsRules {
    typealias R = CallxRequirement
    typealias PushRule = Rule<CallxPushSubject>

    /// The rules, in the order their findings are reported.
    static let all: [PushRule] =
        [request, authorization, body, invitationsOnly, pushType, topic, priority, expiration]
        + InvitationRules.all.map {
            $0.on { (s: CallxPushSubject) in
                s.apnsInvitation.flatMap { body in
                    body["callx"].map {
                        CallxInvitationSubject(
                            invitation: $0, path: "callx", call: PushProfile.call(of: s.push, context: s.context))
                    }
                }
            }
        }

    /// A rule over every APNs push.
    static func apnsRule(
        _ requirement: RequirementID, _ check: @escaping @Sendable (CallxPushSubject, inout RuleFindings) -> Void
    )
        -> PushRule
    {
        PushRule(requirement) { s, found in if s.push.kind == .apns { check(s, &found) } }
    }

    /// A rule over the headers of an APNs invitation.
    static func headerRule(
        _ requirement: RequirementID,
        _ check: @escaping @Sendable (HTTPHeaders, CallxPushSubject, inout RuleFindings) -> Void
    ) -> PushRule {
        PushRule(requirement) { s, found in
            guard s.apnsInvitation != nil, let headers = s.push.headers else { return }
            check(headers, s, &found)
        }
    }

    // MARK: Request line and authorization

    /// CALLX-APNS-1: POST to `/3/device/<token>` over HTTP/2.
    static let request = apnsRule(R.apnsRequest) { s, found in
        let push = s.push
        if let method = push.method, method != "POST" { found.add("method", expected: "POST", actual: method) }
        if let path = push.path, !(path.hasPrefix("/3/device/") && path.count > 10) {
            found.add("path", expected: "/3/device/<token>", actual: path)
        }
        if let version = push.httpVersion, version != "HTTP/2" {
            found.add("httpVersion", expected: "HTTP/2", actual: version)
        }
    }

    /// CALLX-APNS-9: `authorization: bearer <JWT>` (a redacted capture hides the scheme only when it was not
    /// bearer-shaped; it is accepted).
    static let authorization = apnsRule(R.apnsAuthorization) { s, found in
        guard let headers = s.push.headers else { return }
        let auth = headers["authorization"]
        if let auth, auth == "<redacted>" || auth.lowercased().hasPrefix("bearer ") { return }
        found.add(
            "headers.authorization", expected: "bearer <provider JWT>",
            actual: auth == nil ? "absent" : "another scheme")
    }

    // MARK: Body

    /// CALLX-APNS-6: a JSON object body, and an invitation's `aps` empty.
    static let body = apnsRule(R.apnsBody) { s, found in
        guard let body = s.push.body else {
            found.add("body", expected: "a JSON object", actual: s.push.bodyError ?? "no body")
            return
        }
        guard case .object = body else {
            found.add("body", expected: "a JSON object", actual: "a JSON \(body.typeName)")
            return
        }
        guard s.push.isInvitation else { return }
        let aps = body["aps"]
        if !(aps?.objectValue?.isEmpty ?? false) {
            found.add(
                "aps", expected: "an empty object {}",
                actual: aps?.objectValue != nil ? (aps?.serialized() ?? "") : Describe.value(aps))
        }
    }

    /// CALLX-APNS-8: only invitations travel as VoIP pushes.
    static let invitationsOnly = apnsRule(R.apnsInvitationsOnly) { s, found in
        guard let body = s.push.body, case .object = body, !s.push.isInvitation else { return }
        found.add(
            "callx.type", expected: "only call.invited is sent as a VoIP push",
            actual: s.push.callxType.map(Describe.quoted) ?? (body["callx"] == nil ? "no callx" : "no type"))
    }

    // MARK: Headers of the VoIP invitation

    /// CALLX-APNS-2: `apns-push-type: voip`.
    static let pushType = headerRule(R.apnsPushType) { headers, _, found in
        let pushType = headers["apns-push-type"]
        if pushType != "voip" {
            found.add(
                "headers.apns-push-type", expected: "\"voip\"", actual: pushType.map(Describe.quoted) ?? "absent")
        }
    }

    /// CALLX-APNS-3: the target's VoIP topic, or at least a topic ending in `.voip`.
    static let topic = headerRule(R.apnsTopic) { headers, s, found in
        let topic = headers["apns-topic"]
        if let expected = s.context.voipTopic {
            if topic != expected {
                found.add(
                    "headers.apns-topic", expected: Describe.quoted(expected),
                    actual: topic.map(Describe.quoted) ?? "absent")
            }
        } else if !(topic.map { $0.hasSuffix(".voip") && $0.count > 5 } ?? false) {
            found.add(
                "headers.apns-topic", expected: "<bundle ID>.voip", actual: topic.map(Describe.quoted) ?? "absent")
        }
    }

    /// CALLX-APNS-4: `apns-priority: 10`; absent is a finding of ours at SHOULD (APNs then assumes 10).
    static let priority = headerRule(R.apnsPriority) { headers, _, found in
        guard let priority = headers["apns-priority"] else {
            found.add(
                "headers.apns-priority", expected: "\"10\" (APNs assumes 10 when absent)", actual: "absent",
                level: .should)
            return
        }
        if priority != "10" {
            found.add("headers.apns-priority", expected: "\"10\"", actual: Describe.quoted(priority))
        }
    }

    /// CALLX-APNS-5: `apns-expiration: 0`.
    static let expiration = headerRule(R.apnsExpiration) { headers, _, found in
        let expiration = headers["apns-expiration"]
        if expiration != "0" {
            found.add(
                "headers.apns-expiration", expected: "\"0\"",
                actual: expiration.map(Describe.quoted) ?? "absent (APNs then stores the push)")
        }
    }
}
