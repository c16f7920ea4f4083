import JSON

/// A target's own words for the reference design's enumeration values, one map per enumeration, and the
/// members each enumeration covers: what the token API's `values.kind`/`apnsEnvironment` and a profile's own
/// `values:` maps (Callx's `reason`, `state`) both are. A value a map does not name passes unchanged both
/// ways; several reference values may share one target word, which then cannot be read back to one of them.
///
/// ```swift
/// let maps = EnumerationMaps(members: ["reason": ["reason", "endReason"]],
///                            maps: ["reason": ["callerCancelled": "localHangup", "remoteEnded": "localHangup"]])
/// maps.outgoing("endReason", "callerCancelled")   // "localHangup"
/// maps.incoming("endReason", "localHangup")       // "localHangup" (shared: not read back)
/// maps.unreadable("endReason", "localHangup")     // "values.reason maps callerCancelled and remoteEnded to …"
/// ```
public struct EnumerationMaps: Sendable, Equatable {
    /// Enumeration → the members (and placeholders) whose values it covers.
    public var members: [String: [String]]
    /// Enumeration → reference value → the target's value.
    public var maps: [String: [String: JSONValue]]

    public init(members: [String: [String]], maps: [String: [String: JSONValue]]) {
        self.members = members
        self.maps = maps
    }

    /// The enumeration member or placeholder `member` belongs to.
    public func enumeration(of member: String) -> String? {
        members.first { $0.value.contains(member) }?.key
    }

    /// The target's word for the reference design's `value` of `member` (itself when no map names it).
    public func outgoing(_ member: String, _ value: JSONValue) -> JSONValue {
        guard let e = enumeration(of: member), let s = value.stringValue, let out = maps[e]?[s] else { return value }
        return out
    }

    /// The reference design's value for the target's `value` of `member`: the one mapped to it; the value as it
    /// is when none is, or several are (`unreadable(_:_:)`).
    public func incoming(_ member: String, _ value: JSONValue) -> JSONValue {
        let names = canonicalNames(member, value)
        return names.count == 1 ? .string(names[0]) : value
    }

    /// Why the target's `value` of `member` cannot be read back to one reference value (several map to it),
    /// naming the map; nil when it can (or no map names it).
    public func unreadable(_ member: String, _ value: JSONValue) -> String? {
        let names = canonicalNames(member, value)
        guard names.count > 1, let e = enumeration(of: member) else { return nil }
        return
            "values.\(e) maps \(names.joined(separator: " and ")) to \(value.serialized()): the answer's \(member) cannot be read back to one of them"
    }

    /// The reference values of `member`'s enumeration the map sends as `value`, sorted.
    public func canonicalNames(_ member: String, _ value: JSONValue) -> [String] {
        guard let e = enumeration(of: member), let map = maps[e] else { return [] }
        return map.filter { $0.value == value }.keys.sorted()
    }
}
