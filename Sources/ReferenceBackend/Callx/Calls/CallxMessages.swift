import JSON

/// The `callx` objects the backend sends: invitations (pushed) and signaling events (feed and
/// Android stop signals), exactly in the shape Callx decodes.
enum CallxMessages {
    /// A `call.invited` object. `issuedAtMs` is a placeholder until the worker stamps the send time.
    static func invitation(call: CallRecord, eventId: String, issuedAtMs: Int64) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("schemaVersion", 1),
            ("eventId", .string(eventId)),
            ("type", "call.invited"),
            ("callId", .string(call.callId)),
            ("revision", .string(String(call.revision))),
            ("displayName", .string(call.callerDisplayName)),
            ("handle", .string(call.callerHandle)),
            ("issuedAtMs", .int(issuedAtMs)),
            ("expiresAtMs", .int(call.expiresAtMs)),
        ]
        if call.video { members.append(("video", true)) }
        return .object(members)
    }

    /// A `call.accepted` or `call.ended` signaling event.
    static func event(_ planned: PlannedEvent, call: CallRecord, eventId: String, occurredAtMs: Int64) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("schemaVersion", 1),
            ("eventId", .string(eventId)),
            ("type", .string(planned.kind.rawValue)),
            ("callId", .string(call.callId)),
            ("revision", .string(String(call.revision))),
            ("occurredAtMs", .int(occurredAtMs)),
        ]
        if let answeredBy = planned.answeredByInstallationId {
            members.append(("answeredByInstallationId", .string(answeredBy)))
        }
        if let reason = planned.reason { members.append(("reason", .string(reason.rawValue))) }
        return .object(members)
    }

    /// A stop signal without the event's identity and time (the `bare-stop-signal` defect): schemaVersion,
    /// type, callId and reason only.
    static func bare(_ event: JSONValue) -> JSONValue {
        .object((event.objectValue ?? []).filter { !["eventId", "revision", "occurredAtMs"].contains($0.key) })
    }

    /// A snapshot (or a conflict carrying one) with the caller spread flat (the `flat-caller-snapshot`
    /// defect): `callerUserId`, `displayName` and `handle` in place of the `caller` object.
    static func flatCaller(_ snapshot: JSONValue) -> JSONValue {
        guard let members = snapshot.objectValue, let caller = snapshot["caller"]?.objectValue else { return snapshot }
        var out: [(key: String, value: JSONValue)] = []
        for member in members {
            guard member.key == "caller" else {
                out.append(member)
                continue
            }
            for (key, value) in caller { out.append((key == "userId" ? "callerUserId" : key, value)) }
        }
        return .object(out)
    }

    /// A new event ID.
    static func newEventId() -> String { "evt-" + RandomIdentifier.uuid() }
}
