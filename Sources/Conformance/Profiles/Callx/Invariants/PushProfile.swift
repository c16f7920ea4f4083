import JSON

/// The rules every single push must follow, judged on the push alone (plus what the context knows of
/// its call). Rules that compare pushes with each other or with the call's timeline live in
/// `InvariantChecker`.
public enum PushProfile {
    /// Every violation of `push`. `context` supplies the expected VoIP topic, the call's timeline
    /// (expiry, video), secrets to look for and the requirement levels.
    public static func check(_ push: PushDocument, context: InvariantContext = InvariantContext())
        -> [InvariantViolation]
    {
        var r = ViolationRecorder(levels: context.levels, captures: push.sequence.map { [$0] } ?? [])
        switch push.kind {
        case .apns: APNsProfile.check(push, context: context, into: &r)
        case .fcm: FCMProfile.check(push, context: context, into: &r)
        }
        SecretScan.check(push, context: context, into: &r)
        return r.violations
    }

    /// The call the push's callx names, when the context knows it.
    static func call(of push: PushDocument, context: InvariantContext) -> CallTimeline? {
        push.callx?["callId"]?.stringValue.flatMap { context.calls[$0] }
    }
}

/// The VoIP invitation over APNs (seed section "iOS: APNs VoIP invitation").
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
/// | the invitation's fields | CALLX-INV-* (see `InvitationProfile`) |
enum APNsProfile {
    static func check(_ push: PushDocument, context: InvariantContext, into r: inout ViolationRecorder) {
        // MARK: Request line
        if let method = push.method, method != "POST" {
            r.add("CALLX-APNS-1", "method", expected: "POST", actual: method)
        }
        if let path = push.path, !(path.hasPrefix("/3/device/") && path.count > 10) {
            r.add("CALLX-APNS-1", "path", expected: "/3/device/<token>", actual: path)
        }
        if let version = push.httpVersion, version != "HTTP/2" {
            r.add("CALLX-APNS-1", "httpVersion", expected: "HTTP/2", actual: version)
        }
        if let headers = push.headers {
            let auth = headers["authorization"]
            if let auth, auth == "<redacted>" || auth.lowercased().hasPrefix("bearer ") {
                // A redacted capture hides the scheme only when it was not bearer-shaped; accept it.
            } else {
                r.add(
                    "CALLX-APNS-9", "headers.authorization", expected: "bearer <provider JWT>",
                    actual: auth == nil ? "absent" : "another scheme")
            }
        }

        // MARK: Body
        guard let body = push.body else {
            r.add("CALLX-APNS-6", "body", expected: "a JSON object", actual: push.bodyError ?? "no body")
            return
        }
        guard case .object = body else {
            r.add("CALLX-APNS-6", "body", expected: "a JSON object", actual: "a JSON \(body.typeName)")
            return
        }
        let type = push.callxType
        guard push.isInvitation else {
            r.add(
                "CALLX-APNS-8", "callx.type", expected: "only call.invited is sent as a VoIP push",
                actual: type.map(Describe.quoted) ?? (body["callx"] == nil ? "no callx" : "no type"))
            return
        }
        let aps = body["aps"]
        if !(aps?.objectValue?.isEmpty ?? false) {
            r.add(
                "CALLX-APNS-6", "aps", expected: "an empty object {}",
                actual: aps?.objectValue != nil ? (aps?.serialized() ?? "") : Describe.value(aps))
        }

        // MARK: Headers of the VoIP invitation
        if let headers = push.headers {
            let pushType = headers["apns-push-type"]
            if pushType != "voip" {
                r.add(
                    "CALLX-APNS-2", "headers.apns-push-type", expected: "\"voip\"",
                    actual: pushType.map(Describe.quoted) ?? "absent")
            }
            let topic = headers["apns-topic"]
            if let expected = context.voipTopic {
                if topic != expected {
                    r.add(
                        "CALLX-APNS-3", "headers.apns-topic", expected: Describe.quoted(expected),
                        actual: topic.map(Describe.quoted) ?? "absent")
                }
            } else if !(topic.map { $0.hasSuffix(".voip") && $0.count > 5 } ?? false) {
                r.add(
                    "CALLX-APNS-3", "headers.apns-topic", expected: "<bundle ID>.voip",
                    actual: topic.map(Describe.quoted) ?? "absent")
            }
            if let priority = headers["apns-priority"] {
                if priority != "10" {
                    r.add(
                        "CALLX-APNS-4", "headers.apns-priority", expected: "\"10\"", actual: Describe.quoted(priority))
                }
            } else {
                r.add(
                    "CALLX-APNS-4", "headers.apns-priority", expected: "\"10\" (APNs assumes 10 when absent)",
                    actual: "absent", heuristic: true)
            }
            let expiration = headers["apns-expiration"]
            if expiration != "0" {
                r.add(
                    "CALLX-APNS-5", "headers.apns-expiration", expected: "\"0\"",
                    actual: expiration.map(Describe.quoted) ?? "absent (APNs then stores the push)")
            }
        }

        // MARK: The invitation
        if let callx = body["callx"] {
            InvitationProfile.check(callx, path: "callx", call: PushProfile.call(of: push, context: context), into: &r)
        }
    }
}
