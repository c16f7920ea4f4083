import Conformance
import JSON

/// A target's own names for the reference design's enumeration values (`values:` in a target file):
/// `kind: {apnsVoip: voip}` sends `voip` where the reference sends `apnsVoip`, and reads `voip` back as
/// `apnsVoip`. A value the map does not name passes unchanged both ways. `apnsEnvironment` may map to any
/// JSON scalar (`{production: false, sandbox: true}` for an API that takes `sandbox: true|false`).
/// Several canonical values may share one target value (`{callerCancelled: localHangup, remoteEnded:
/// localHangup}`): requests send it for each, and an answer's `localHangup` cannot be read back to one of
/// them, so it stays as the target sent it and `unreadable(_:_:)` says why a check on it cannot be judged.
public struct ValueMaps: Sendable, Equatable {
    /// The enumerations a target may rename, and the canonical members each one covers.
    public static let members: [String: [String]] = [
        "kind": ["kind"], "reason": ["reason", "endReason"], "state": ["state"], "apnsEnvironment": ["apnsEnvironment"],
    ]

    /// Enumeration (`kind`, `reason`, `state`, `apnsEnvironment`) → canonical value → the target's value.
    public var maps: [String: [String: JSONValue]]

    /// Maps to the target's words.
    public init(_ maps: [String: [String: String]] = [:]) {
        self.maps = maps.mapValues { $0.mapValues(JSONValue.string) }
    }

    /// Maps to any JSON value (a boolean goes out as a JSON boolean wherever a body template places the
    /// whole value).
    public init(values maps: [String: [String: JSONValue]]) {
        self.maps = maps
    }

    /// The maps with the members each enumeration covers (`members`).
    var enumerations: EnumerationMaps { EnumerationMaps(members: Self.members, maps: maps) }

    /// The enumeration a canonical member or placeholder belongs to.
    static func enumeration(of member: String) -> String? {
        members.first { $0.value.contains(member) }?.key
    }

    /// The target's name for canonical `value` of `member`.
    func outgoing(_ member: String, _ value: JSONValue) -> JSONValue { enumerations.outgoing(member, value) }

    /// The canonical name for the target's `value` of `member`: the one canonical value mapped to it; the
    /// value as it is when none is, or several are (`unreadable(_:_:)`).
    func incoming(_ member: String, _ value: JSONValue) -> JSONValue { enumerations.incoming(member, value) }

    /// Why the target's `value` of `member` cannot be read back to one canonical value (several map to
    /// it), naming the map; nil when it can (or the map does not name it).
    func unreadable(_ member: String, _ value: JSONValue) -> String? { enumerations.unreadable(member, value) }

    /// The canonical values `value` of `member` may stand for: those the map sends as it (one, or several
    /// for a shared word), or the value itself when the map sends nothing as it. Read twice, a value stays
    /// what it was read as, so an answer already read back (`incoming`) and one as the target sent it
    /// compare alike.
    func readings(_ member: String, _ value: JSONValue) -> Set<String> {
        let names = enumerations.canonicalNames(member, value)
        return names.isEmpty ? [value.stringValue ?? value.serialized()] : Set(names)
    }
}

extension TargetMapping {
    /// What a `numbers:` entry covers: the canonical members and placeholders of that value.
    public static let numberMembers: [String: [String]] = [
        "revision": ["revision", "expectedRevision"], "cursor": ["cursor", "nextCursor"], "eventId": ["eventId"],
        "callId": ["callId"],
    ]

    /// Whether canonical member or placeholder `name` is one the target sends as a JSON number.
    func isNumber(_ name: String) -> Bool {
        numbers.contains { Self.numberMembers[$0]?.contains(name) == true }
    }

    /// A request's values with enumerations renamed and declared numbers made JSON numbers.
    func outgoing(_ values: [String: JSONValue]) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for (name, value) in values {
            var v = self.values.outgoing(name, value)
            if isNumber(name), let s = v.stringValue, Int64(s) != nil { v = .number(s) }
            out[name] = v
        }
        return out
    }

    /// The target's answer with every member of a renamed enumeration read back to the canonical
    /// value, and every declared number read as its decimal text, at any depth (snapshots, events).
    func incoming(_ json: JSONValue) -> JSONValue {
        if values.maps.isEmpty && numbers.isEmpty { return json }
        return incoming(json, member: nil)
    }

    private func incoming(_ json: JSONValue, member: String?) -> JSONValue {
        switch json {
        case .object(let members):
            return .object(members.map { ($0.key, incoming($0.value, member: $0.key)) })
        case .array(let items):
            return .array(items.map { incoming($0, member: member) })
        case .number(let n) where member.map(isNumber) == true:
            return .string(n)
        default:
            return member.map { values.incoming($0, json) } ?? json
        }
    }
}
