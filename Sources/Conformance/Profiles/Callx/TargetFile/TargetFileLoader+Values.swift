import JSON

extension TargetFileDecoder {
    /// The reference design's values of each call enumeration a target may rename (for did-you-mean); the
    /// token enumerations (`kind`, `apnsEnvironment`) are the engine's (`TokenAPIMapping.enumerations`).
    static let callValues: [String: [String]] = [
        "reason": [
            "localHangup", "declined", "remoteEnded", "callerCancelled", "unanswered", "busy", "failed",
            "answeredElsewhere", "declinedElsewhere",
        ],
        "state": ["ringing", "accepted", "ended"],
    ]

    /// `values: {reason: {…}, state: {…}}` (the engine reads `kind` and `apnsEnvironment`): the target's
    /// names for call enumeration values, used both ways, beside the token API's maps (`tokens`). Several
    /// canonical values may share one target name: a request sends it for each, and an answer's value that
    /// several share is not read back (`ValueMaps.unreadable(_:_:)`).
    mutating func decodeValues(_ entries: [String: YAMLMapEntry], tokens: TokenAPIMapping) -> ValueMaps {
        var maps = tokens.values
        for (name, canonical) in Self.callValues.sorted(by: { $0.key < $1.key }) {
            if let e = entries[name], let map = decodeValueMap(e, canonical: canonical, typed: false) {
                maps[name] = map
            }
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
