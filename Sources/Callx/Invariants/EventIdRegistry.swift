import Conformance
import JSON

/// What each eventId was first used for, across pushes and events: one eventId names one message.
struct EventIdRegistry {
    struct Use: Sendable {
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

    /// Registers a push's eventId; returns the earlier use when it names another message (CALLX-INV-5 for an
    /// invitation, CALLX-EVT-3 for a stop signal).
    mutating func record(_ push: PushDocument) -> Use? {
        guard let callx = push.callx, let eventId = callx["eventId"]?.stringValue else { return nil }
        let identity = Self.identity(callx)
        guard let earlier = uses[eventId] else {
            uses[eventId] = Use(identity: identity, captures: push.sequence.map { [$0] } ?? [], events: [])
            return nil
        }
        return earlier.identity == identity ? nil : earlier
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
