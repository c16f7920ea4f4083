import Conformance
import JSON

/// What each eventId was first used for, across pushes and events: one eventId names one message.
///
/// Feed events reach the invariants read back through the target's value maps (`TargetMapping.incoming`),
/// pushes as the backend sent them; so a message's reason is compared through `values` on both sides. A word
/// several reference values share (a many-to-one map) cannot be read back to one of them: it agrees with any
/// of those values, and with the same word, and with no other.
struct EventIdRegistry {
    struct Use: Sendable {
        var identity: String
        var captures: [Int]
        var events: [Int]
        /// Type, call and revision: what must be equal.
        var key: String = ""
        /// The reference values the message's reason may stand for (nil: no reason).
        var reasons: Set<String>? = nil
    }
    var uses: [String: Use] = [:]
    /// The target's value maps (`values:` in a target file); empty for the reference design's words.
    var values = ValueMaps()

    /// The identity of a callx message: the same eventId may travel again only on the same message
    /// (a repeated invitation, one event in several feeds, a stop signal repeating a feed event).
    static func identity(_ callx: JSONValue) -> String {
        var out = key(callx)
        if callx["type"]?.stringValue != "call.invited", let reason = callx["reason"]?.stringValue {
            out += " (\(reason))"
        }
        return out
    }

    /// Type, call and, but for an invitation, revision.
    static func key(_ callx: JSONValue) -> String {
        let type = callx["type"]?.stringValue ?? "?"
        let callId = callx["callId"]?.stringValue ?? "?"
        if type == "call.invited" { return type + " of call " + callId }
        let revision = callx["revision"]?.stringValue ?? "?"
        return "\(type) of call \(callId) at revision \(revision)"
    }

    /// `callx` as a use: its reason read through `values` (the reference values the word may stand for).
    func use(_ callx: JSONValue, captures: [Int], events: [Int]) -> Use {
        let key = Self.key(callx)
        let reasons = key.hasPrefix("call.invited ") ? nil : callx["reason"].map { values.readings("reason", $0) }
        return Use(identity: Self.identity(callx), captures: captures, events: events, key: key, reasons: reasons)
    }

    /// Whether `later` names the message `earlier` names: same type, call and revision, and reasons that
    /// can stand for the same reference value.
    static func same(_ earlier: Use, _ later: Use) -> Bool {
        guard earlier.key == later.key else { return false }
        switch (earlier.reasons, later.reasons) {
        case (nil, nil): return true
        case (let a?, let b?): return !a.isDisjoint(with: b)
        default: return false
        }
    }

    /// Registers a push's eventId; returns the earlier use when it names another message (CALLX-INV-5 for an
    /// invitation, CALLX-EVT-3 for a stop signal).
    mutating func record(_ push: PushDocument) -> Use? {
        guard let callx = push.callx, let eventId = callx["eventId"]?.stringValue else { return nil }
        return record(eventId, use(callx, captures: push.sequence.map { [$0] } ?? [], events: []))
    }

    /// Registers an event's eventId; returns the earlier use when it clashes.
    mutating func record(event json: JSONValue, index: Int) -> Use? {
        guard let eventId = json["eventId"]?.stringValue else { return nil }
        return record(eventId, use(json, captures: [], events: [index]))
    }

    private mutating func record(_ eventId: String, _ use: Use) -> Use? {
        guard let earlier = uses[eventId] else {
            uses[eventId] = use
            return nil
        }
        return Self.same(earlier, use) ? nil : earlier
    }
}
