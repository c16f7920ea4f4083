import Conformance
import JSON

/// The rules of the invitation object (`callx` of a VoIP push, `data.callx` of an FCM message, or a bare
/// invitation given to `check-payload`), from the seed's table of invitation fields, one per requirement.
///
/// | rule | requirement |
/// |---|---|
/// | an object; `schemaVersion` the integer 1; `type` `call.invited` | CALLX-INV-1 |
/// | `callId` a string in the Callx ID format | CALLX-INV-2 |
/// | `displayName`, `handle` strings of 1–256 UTF-8 bytes | CALLX-INV-3 |
/// | `revision` a canonical decimal string; `issuedAtMs`, `expiresAtMs` integers in 0…2^53−1; `video` a boolean | CALLX-INV-4 |
/// | `eventId` present, a string in the Callx ID format | CALLX-INV-5 (SHOULD: the seed recommends it) |
/// | `expiresAtMs` after `issuedAtMs`; equal to the call's expiry; `video` as the call was created | CALLX-INV-6 |
///
/// Only CALLX-INV-1 judges an invitation that is not a JSON object; the others skip it.
enum InvitationRules {
    typealias R = CallxRequirement
    typealias InvitationRule = Rule<CallxInvitationSubject>

    /// The rules, in the order their findings are reported.
    static let all: [InvitationRule] = [identity, callId, names, eventId, formats, consistency]

    /// A rule over an invitation that is a JSON object.
    static func objectRule(
        _ requirement: RequirementID, _ check: @escaping @Sendable (CallxInvitationSubject, inout RuleFindings) -> Void
    ) -> InvitationRule {
        InvitationRule(requirement) { s, found in
            if case .object = s.invitation { check(s, &found) }
        }
    }

    static let callxIdFormat = "a Callx ID (^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$)"

    /// CALLX-INV-1: an object with `schemaVersion` 1 and `type` `call.invited`.
    static let identity = InvitationRule(R.invitationIdentity) { s, found in
        let invitation = s.invitation
        guard case .object = invitation else {
            found.add(s.path, expected: "an invitation object", actual: "a JSON \(invitation.typeName)")
            return
        }
        let schema = invitation["schemaVersion"]
        if !(schema?.isIntegerLiteral == true && schema?.int64Value == 1) {
            found.add(s.path("schemaVersion"), expected: "the integer 1", actual: Describe.value(schema))
        }
        let type = invitation["type"]
        if type?.stringValue != "call.invited" {
            found.add(s.path("type"), expected: "\"call.invited\"", actual: Describe.value(type))
        }
    }

    /// CALLX-INV-2: `callId` in the Callx ID format.
    static let callId = objectRule(R.invitationCallId) { s, found in
        let callId = s.invitation["callId"]
        if !(callId?.stringValue.map(ValueRules.isCallxIdentifier) ?? false) {
            found.add(s.path("callId"), expected: callxIdFormat, actual: Describe.value(callId))
        }
    }

    /// CALLX-INV-3: `displayName` and `handle` strings of 1–256 UTF-8 bytes.
    static let names = objectRule(R.invitationNames) { s, found in
        for field in ["displayName", "handle"] {
            let value = s.invitation[field]
            let bytes = value?.stringValue?.utf8.count ?? 0
            if value?.stringValue == nil || bytes < 1 || bytes > 256 {
                let actual = value?.stringValue != nil ? "\(bytes) bytes" : Describe.value(value)
                found.add(s.path(field), expected: "a string of 1–256 UTF-8 bytes", actual: actual)
            }
        }
    }

    /// CALLX-INV-5: an `eventId` (recommended, for deduplication) in the Callx ID format.
    static let eventId = objectRule(R.invitationEventId) { s, found in
        guard let eventId = s.invitation["eventId"] else {
            found.add(s.path("eventId"), expected: "an eventId (recommended, for deduplication)", actual: "absent")
            return
        }
        if !(eventId.stringValue.map(ValueRules.isCallxIdentifier) ?? false) {
            found.add(s.path("eventId"), expected: callxIdFormat, actual: Describe.value(eventId))
        }
    }

    /// CALLX-INV-4: the optional fields' formats: `revision`, `issuedAtMs`, `expiresAtMs`, `video`.
    static let formats = objectRule(R.invitationFormats) { s, found in
        let invitation = s.invitation
        if let revision = invitation["revision"], !(revision.stringValue.map(ValueRules.isCanonicalDecimal) ?? false) {
            found.add(
                s.path("revision"), expected: "a decimal string without sign or leading zeros",
                actual: Describe.value(revision))
        }
        for field in ["issuedAtMs", "expiresAtMs"] {
            guard let value = invitation[field], ValueRules.millis(value) == nil else { continue }
            found.add(
                s.path(field), expected: "integer milliseconds within 0…2^53−1", actual: Describe.value(value))
        }
        if let video = invitation["video"], video.boolValue == nil {
            found.add(s.path("video"), expected: "a boolean", actual: Describe.value(video))
        }
    }

    /// CALLX-INV-6: the times agree with each other and with the call, and `video` with how the call was created.
    static let consistency = objectRule(R.invitationConsistency) { s, found in
        let invitation = s.invitation
        let issued = ValueRules.millis(invitation["issuedAtMs"])
        let expires = ValueRules.millis(invitation["expiresAtMs"])
        if let issued, let expires, expires <= issued {
            found.add(s.path("expiresAtMs"), expected: "later than issuedAtMs \(issued)", actual: String(expires))
        }
        guard let call = s.call else { return }
        if let expected = call.expiresAtMs, let expires, expires != expected {
            found.add(s.path("expiresAtMs"), expected: "the call's expiresAtMs \(expected)", actual: String(expires))
        }
        let video = invitation["video"]
        if let expected = call.video, let actual = video?.boolValue ?? (video == nil ? false : nil), actual != expected
        {
            found.add(
                s.path("video"), expected: expected ? "true (a video call)" : "false or absent",
                actual: Describe.value(video))
        }
    }
}
