import JSON

/// What each eventId was first used for, across pushes and events: one eventId names one message.
struct EventIdRegistry {
    struct Use {
        var identity: String
        var captures: [Int]
        var events: [Int]
    }
    var uses: [String: Use] = [:]

    /// The identity of a callx message: the same eventId may travel again only on the same message
    /// (a repeated invitation, one event in several feeds, a stop signal repeating a feed event).
    static func identity(_ callx: JSONValue) -> String {
        let type = callx["type"]?.stringValue ?? "?"
        let callId = callx["callId"]?.stringValue ?? "?"
        if type == "call.invited" { return type + " of call " + callId }
        let revision = callx["revision"]?.stringValue ?? "?"
        var out = "\(type) of call \(callId) at revision \(revision)"
        if let reason = callx["reason"]?.stringValue { out += " (\(reason))" }
        return out
    }

    /// Registers a push's eventId; a clash with another message is CALLX-INV-5 for an invitation.
    mutating func record(_ push: PushDocument, into r: inout ViolationRecorder) {
        guard let callx = push.callx, let eventId = callx["eventId"]?.stringValue else { return }
        let identity = Self.identity(callx)
        let mine = push.sequence.map { [$0] } ?? []
        guard let earlier = uses[eventId] else {
            uses[eventId] = Use(identity: identity, captures: mine, events: [])
            return
        }
        guard earlier.identity != identity else { return }
        r.add(
            push.isInvitation ? "CALLX-INV-5" : "CALLX-EVT-3", "callx.eventId",
            expected: "eventId \(Describe.quoted(eventId)) only on \(earlier.identity)", actual: "also on \(identity)",
            extraCaptures: earlier.captures, extraEvents: earlier.events)
    }

    /// Registers an event's eventId; returns the earlier use when it clashes.
    mutating func record(event json: JSONValue, index: Int) -> Use? {
        guard let eventId = json["eventId"]?.stringValue else { return nil }
        let identity = Self.identity(json)
        guard let earlier = uses[eventId] else {
            uses[eventId] = Use(identity: identity, captures: [], events: [index])
            return nil
        }
        return earlier.identity == identity ? nil : earlier
    }
}

/// The rules of signaling events as the engine read them from event feeds (seed sections "Signaling
/// events" and "Data model").
///
/// | rule | requirement |
/// |---|---|
/// | schemaVersion 1, eventId, type, callId, revision (decimal string), occurredAtMs (integer ms); call.accepted names answeredByInstallationId; call.invited has the invitation's fields (eventId and revision optional, no occurredAtMs) | CALLX-EVT-2 |
/// | an eventId is shared only by the same event (same type, call, revision and reason), across feeds and pushes | CALLX-EVT-3 |
/// | within one feed, a call's events carry strictly increasing revisions | CALLX-EVT-3 |
///
/// The same event read twice from one feed (the engine re-reading a page) is judged once.
enum EventInvariants {
    static func check(_ events: [ObservedEvent], registry: inout EventIdRegistry, levels: InvariantLevels)
        -> [InvariantViolation]
    {
        var out: [InvariantViolation] = []
        var seen: Set<String> = []
        var lastRevision: [String: (revision: String, index: Int)] = [:]
        for (index, event) in events.enumerated() {
            let json = event.json
            let dedupe = event.feed + "|" + json.serialized(sortedKeys: true)
            guard seen.insert(dedupe).inserted else { continue }
            var r = ViolationRecorder(levels: levels, events: [index])
            checkFields(json, into: &r)
            if let earlier = registry.record(event: json, index: index) {
                r.add(
                    "CALLX-EVT-3", "eventId",
                    expected: "eventId \(Describe.value(json["eventId"])) only on \(earlier.identity)",
                    actual: "also on \(EventIdRegistry.identity(json)) in \(event.feed)'s feed",
                    extraCaptures: earlier.captures, extraEvents: earlier.events)
            }
            if let callId = json["callId"]?.stringValue, let revision = json["revision"]?.stringValue,
                ValueRules.isCanonicalDecimal(revision)
            {
                let key = event.feed + "|" + callId
                if let previous = lastRevision[key], !ValueRules.decimalLess(previous.revision, revision) {
                    r.add(
                        "CALLX-EVT-3", "revision",
                        expected: "a revision above \(previous.revision) (the previous event of call \(callId) "
                            + "in \(event.feed)'s feed)",
                        actual: Describe.quoted(revision), extraEvents: [previous.index])
                }
                lastRevision[key] = (revision, index)
            }
            out += r.violations
        }
        return out
    }

    static func checkFields(_ json: JSONValue, into r: inout ViolationRecorder) {
        guard case .object = json else {
            r.add("CALLX-EVT-2", "", expected: "an event object", actual: "a JSON \(json.typeName)")
            return
        }
        let schema = json["schemaVersion"]
        if !(schema?.isIntegerLiteral == true && schema?.int64Value == 1) {
            r.add("CALLX-EVT-2", "schemaVersion", expected: "the integer 1", actual: Describe.value(schema))
        }
        // An invitation over signaling is the invitation itself (seed: "The invitation fields"): its
        // eventId and revision are optional and it has issuedAtMs, not occurredAtMs.
        let invitation = json["type"]?.stringValue == "call.invited"
        func optional(_ field: String) -> Bool { invitation && json[field] == nil }
        for field in ["eventId", "callId"]
        where !optional(field) && !(json[field]?.stringValue.map(ValueRules.isCallxIdentifier) ?? false) {
            r.add("CALLX-EVT-2", field, expected: "a Callx ID", actual: Describe.value(json[field]))
        }
        if json["type"]?.stringValue == nil {
            r.add("CALLX-EVT-2", "type", expected: "a string", actual: Describe.value(json["type"]))
        }
        if !optional("revision") && !(json["revision"]?.stringValue.map(ValueRules.isCanonicalDecimal) ?? false) {
            r.add("CALLX-EVT-2", "revision", expected: "a decimal string", actual: Describe.value(json["revision"]))
        }
        if !invitation && ValueRules.millis(json["occurredAtMs"]) == nil {
            r.add(
                "CALLX-EVT-2", "occurredAtMs", expected: "integer milliseconds",
                actual: Describe.value(json["occurredAtMs"]))
        }
        if json["type"]?.stringValue == "call.accepted", json["answeredByInstallationId"]?.stringValue == nil {
            r.add(
                "CALLX-EVT-2", "answeredByInstallationId", expected: "the answering installation",
                actual: Describe.value(json["answeredByInstallationId"]))
        }
    }
}
