import Conformance
import JSON

/// The rules of signaling events as the engine read them from event feeds (seed sections "Signaling
/// events" and "Data model"), one per requirement.
///
/// | rule | requirement |
/// |---|---|
/// | schemaVersion 1, eventId, type, callId, revision (decimal string), occurredAtMs (integer ms); call.accepted names answeredByInstallationId; call.invited has the invitation's fields (eventId and revision optional, no occurredAtMs) | CALLX-EVT-2 |
/// | an eventId is shared only by the same event (same type, call, revision and reason), across feeds and pushes; within one feed, a call's events carry strictly increasing revisions | CALLX-EVT-3 |
///
/// The same event read twice from one feed (the engine re-reading a page) is judged once (`InvariantChecker`).
enum EventRules {
    typealias R = CallxRequirement
    typealias EventRule = Rule<CallxEventSubject>

    /// The rules, in the order their findings are reported.
    static let all: [EventRule] = [fields, identity]

    /// CALLX-EVT-2: the event's fields.
    static let fields = EventRule(R.eventFields) { s, found in
        let json = s.json
        guard case .object = json else {
            found.add("", expected: "an event object", actual: "a JSON \(json.typeName)")
            return
        }
        let schema = json["schemaVersion"]
        if !(schema?.isIntegerLiteral == true && schema?.int64Value == 1) {
            found.add("schemaVersion", expected: "the integer 1", actual: Describe.value(schema))
        }
        // An invitation over signaling is the invitation itself (seed: "The invitation fields"): its
        // eventId and revision are optional and it has issuedAtMs, not occurredAtMs.
        let invitation = json["type"]?.stringValue == "call.invited"
        func optional(_ field: String) -> Bool { invitation && json[field] == nil }
        for field in ["eventId", "callId"]
        where !optional(field) && !(json[field]?.stringValue.map(ValueRules.isCallxIdentifier) ?? false) {
            found.add(field, expected: "a Callx ID", actual: Describe.value(json[field]))
        }
        if json["type"]?.stringValue == nil {
            found.add("type", expected: "a string", actual: Describe.value(json["type"]))
        }
        if !optional("revision") && !(json["revision"]?.stringValue.map(ValueRules.isCanonicalDecimal) ?? false) {
            found.add("revision", expected: "a decimal string", actual: Describe.value(json["revision"]))
        }
        if !invitation && ValueRules.millis(json["occurredAtMs"]) == nil {
            found.add("occurredAtMs", expected: "integer milliseconds", actual: Describe.value(json["occurredAtMs"]))
        }
        if json["type"]?.stringValue == "call.accepted", json["answeredByInstallationId"]?.stringValue == nil {
            found.add(
                "answeredByInstallationId", expected: "the answering installation",
                actual: Describe.value(json["answeredByInstallationId"]))
        }
    }

    /// CALLX-EVT-3: an eventId names one event, and a call's revisions increase within a feed.
    static let identity = EventRule(R.eventIdentity) { s, found in
        let json = s.json
        if let earlier = s.earlierUse {
            found.add(
                "eventId", expected: "eventId \(Describe.value(json["eventId"])) only on \(earlier.identity)",
                actual: "also on \(EventIdRegistry.identity(json)) in \(s.event.feed)'s feed",
                captures: earlier.captures, events: earlier.events)
        }
        if let previous = s.previousRevision, let revision = json["revision"]?.stringValue,
            !ValueRules.decimalLess(previous.revision, revision)
        {
            found.add(
                "revision",
                expected: "a revision above \(previous.revision) (the previous event of call "
                    + "\(json["callId"]?.stringValue ?? "") in \(s.event.feed)'s feed)",
                actual: Describe.quoted(revision), events: [previous.index])
        }
    }
}
