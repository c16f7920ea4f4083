import JSON

/// A check on the value at a JSON path (`callx.revision`, `events.0.type`).
public struct PathMatcher: Sendable, Equatable {
    public var path: String
    /// All must hold.
    public var conditions: [MatchCondition]
    /// The requirement this field evidences (`requirement:` beside its conditions): a mismatch of this
    /// field is charged to it instead of the step's requirement.
    public var requirement: String?
    public var mark: YAMLMark

    public init(
        path: String, conditions: [MatchCondition], requirement: String? = nil,
        mark: YAMLMark = YAMLMark(line: 1, column: 1)
    ) {
        self.path = path
        self.conditions = conditions
        self.requirement = requirement
        self.mark = mark
    }
}

/// One condition on a value. Values may hold `$name.path` references.
public enum MatchCondition: Sendable, Equatable {
    case equals(JSONValue)
    /// The value differs from this one (or is absent).
    case notEquals(JSONValue)
    /// A regular expression (Swift `Regex` syntax) the whole string must match.
    case matches(String)
    case oneOf([JSONValue])
    case type(JSONType)
    /// Inclusive bounds on a number; either may be missing.
    case range(min: JSONValue?, max: JSONValue?)
    /// `absent: true`: the path must not exist; `absent: false`: it must.
    case absent(Bool)
    /// A number whose distance from `of` (value minus `of`) lies within the inclusive bounds, e.g. an
    /// expiry at most an hour after the call was created.
    case within(of: JSONValue, min: Double?, max: Double?)

    public static let keywords = ["equals", "notEquals", "matches", "oneOf", "type", "range", "absent", "within"]
}

/// JSON types a `type` condition names; `integer` is a number written without fraction or exponent.
public enum JSONType: String, Sendable, CaseIterable {
    case string, number, integer, boolean, object, array, null
}
