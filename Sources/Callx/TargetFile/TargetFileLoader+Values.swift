import Conformance
import JSON

extension TargetFileDecoder {
    /// The reference design's values of each enumeration a target may rename (for did-you-mean).
    static let canonicalValues: [String: [String]] = [
        "kind": ["apnsVoip", "fcm"],
        "reason": [
            "localHangup", "declined", "remoteEnded", "callerCancelled", "unanswered", "busy", "failed",
            "answeredElsewhere", "declinedElsewhere",
        ],
        "state": ["ringing", "accepted", "ended"],
        "apnsEnvironment": ["production", "sandbox"],
    ]

    /// The enumerations whose target values keep their YAML type (`false` is a JSON boolean); the others
    /// are words, as answers name them.
    static let typedValues: Set<String> = ["apnsEnvironment"]

    /// `values: {kind: {apnsVoip: voip}, reason: {…}, state: {…}, apnsEnvironment: {…}}`: the target's names
    /// for enumeration values, used both ways. Several canonical values may share one target name: a
    /// request sends it for each, and an answer's value that several share is not read back
    /// (`ValueMaps.unreadable(_:_:)`).
    mutating func decodeValues(_ node: YAMLNode) -> ValueMaps {
        let names = ValueMaps.members.keys.sorted()
        guard let f = d.mapping(node, "values", known: names) else { return ValueMaps() }
        var maps: [String: [String: JSONValue]] = [:]
        for name in names {
            guard let e = f[name],
                let map = Self.typedValues.contains(name)
                    ? scalarMap(e.value, "values." + name)
                    : stringMap(e.value, "values." + name)?.mapValues(JSONValue.string)
            else { continue }
            for entry in e.value.entries ?? [] {
                let known = Self.canonicalValues[name] ?? []
                if !known.contains(entry.key) {
                    d.error(
                        entry.keyMark, "values.\(name).\(entry.key)",
                        "'\(entry.key)' is no \(name) of the reference design\(Diagnostics.suggestion(entry.key, known)) (known: \(known.joined(separator: ", ")))"
                    )
                }
            }
            maps[name] = map
        }
        return ValueMaps(values: maps)
    }

    /// `numbers: [revision, cursor, eventId, callId]`: values the target sends as JSON numbers.
    mutating func decodeNumbers(_ node: YAMLNode) -> Set<String> {
        let known = TargetMapping.numberMembers.keys.sorted()
        guard let list = d.stringList(node, "numbers") else { return [] }
        var out: Set<String> = []
        for (i, name) in list.enumerated() {
            if known.contains(name) {
                out.insert(name)
            } else {
                d.error(
                    (node.items?[i] ?? node).mark, "numbers[\(i)]",
                    "'\(name)' cannot be a number\(Diagnostics.suggestion(name, known)) (known: \(known.joined(separator: ", ")))"
                )
            }
        }
        return out
    }
}
