import JSON

/// The rules of the invitation object (`callx` of a VoIP push, `data.callx` of an FCM message), from
/// the seed's table of invitation fields.
///
/// | rule | requirement |
/// |---|---|
/// | an object; `schemaVersion` the integer 1; `type` `call.invited` | CALLX-INV-1 |
/// | `callId` a string in the Callx ID format | CALLX-INV-2 |
/// | `displayName`, `handle` strings of 1–256 UTF-8 bytes | CALLX-INV-3 |
/// | `revision` a canonical decimal string; `issuedAtMs`, `expiresAtMs` integers in 0…2^53−1; `video` a boolean | CALLX-INV-4 |
/// | `eventId` present, a string in the Callx ID format | CALLX-INV-5 (SHOULD: the seed recommends it) |
/// | `expiresAtMs` after `issuedAtMs`; equal to the call's expiry; `video` as the call was created | CALLX-INV-6 |
public enum InvitationProfile {
    /// Checks `invitation`; `path` prefixes every reported path (e.g. `callx` or `message.data.callx→`).
    static func check(
        _ invitation: JSONValue, path: String, call: CallTimeline?, into r: inout ViolationRecorder
    ) {
        func p(_ field: String) -> String {
            path.isEmpty ? field : path.hasSuffix("→") ? path + field : path + "." + field
        }
        guard case .object = invitation else {
            r.add("CALLX-INV-1", path, expected: "an invitation object", actual: "a JSON \(invitation.typeName)")
            return
        }
        // MARK: Identity
        let schema = invitation["schemaVersion"]
        if !(schema?.isIntegerLiteral == true && schema?.int64Value == 1) {
            r.add("CALLX-INV-1", p("schemaVersion"), expected: "the integer 1", actual: Describe.value(schema))
        }
        let type = invitation["type"]
        if type?.stringValue != "call.invited" {
            r.add("CALLX-INV-1", p("type"), expected: "\"call.invited\"", actual: Describe.value(type))
        }
        let callId = invitation["callId"]
        if !(callId?.stringValue.map(ValueRules.isCallxIdentifier) ?? false) {
            r.add(
                "CALLX-INV-2", p("callId"), expected: "a Callx ID (^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$)",
                actual: Describe.value(callId))
        }
        for field in ["displayName", "handle"] {
            let value = invitation[field]
            let bytes = value?.stringValue?.utf8.count ?? 0
            if value?.stringValue == nil || bytes < 1 || bytes > 256 {
                let actual = value?.stringValue != nil ? "\(bytes) bytes" : Describe.value(value)
                r.add("CALLX-INV-3", p(field), expected: "a string of 1–256 UTF-8 bytes", actual: actual)
            }
        }
        // MARK: Optional fields
        if let eventId = invitation["eventId"] {
            if !(eventId.stringValue.map(ValueRules.isCallxIdentifier) ?? false) {
                r.add(
                    "CALLX-INV-5", p("eventId"), expected: "a Callx ID (^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$)",
                    actual: Describe.value(eventId))
            }
        } else {
            r.add(
                "CALLX-INV-5", p("eventId"), expected: "an eventId (recommended, for deduplication)", actual: "absent")
        }
        if let revision = invitation["revision"], !(revision.stringValue.map(ValueRules.isCanonicalDecimal) ?? false) {
            r.add(
                "CALLX-INV-4", p("revision"), expected: "a decimal string without sign or leading zeros",
                actual: Describe.value(revision))
        }
        var times: [String: Int64] = [:]
        for field in ["issuedAtMs", "expiresAtMs"] {
            guard let value = invitation[field] else { continue }
            if let ms = ValueRules.millis(value) {
                times[field] = ms
            } else {
                r.add(
                    "CALLX-INV-4", p(field), expected: "integer milliseconds within 0…2^53−1",
                    actual: Describe.value(value))
            }
        }
        let video = invitation["video"]
        if let video, video.boolValue == nil {
            r.add("CALLX-INV-4", p("video"), expected: "a boolean", actual: Describe.value(video))
        }
        // MARK: Consistency
        if let issued = times["issuedAtMs"], let expires = times["expiresAtMs"], expires <= issued {
            r.add(
                "CALLX-INV-6", p("expiresAtMs"), expected: "later than issuedAtMs \(issued)",
                actual: String(expires))
        }
        if let call {
            if let expected = call.expiresAtMs, let expires = times["expiresAtMs"], expires != expected {
                r.add(
                    "CALLX-INV-6", p("expiresAtMs"), expected: "the call's expiresAtMs \(expected)",
                    actual: String(expires))
            }
            if let expected = call.video, let actual = video?.boolValue ?? (video == nil ? false : nil),
                actual != expected
            {
                r.add(
                    "CALLX-INV-6", p("video"), expected: expected ? "true (a video call)" : "false or absent",
                    actual: Describe.value(video))
            }
        }
    }
}
