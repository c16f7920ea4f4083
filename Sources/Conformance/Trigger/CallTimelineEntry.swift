import JSON

/// One line of a live exchange's timeline (the fake caller's call, a trigger's exchange): when (seconds
/// since it started), what kind of thing, the words, and the details for `--json`. Holds no secrets.
public struct CallTimelineEntry: Sendable {
    public enum Kind: String, Sendable {
        /// Set-up before the call (device registration, the feed's start).
        case setup
        case created
        /// A push a mock received for this call.
        case push
        /// An event on the caller's feed.
        case event
        /// A request the caller or a virtual device made (answer, decline, cancel, hang-up).
        case action
        case answered
        case ended
        /// Something the backend got wrong.
        case finding
        /// Everything else worth saying (a feed that cannot be read, an interruption).
        case note
    }

    /// Seconds since the fake caller started (set-up comes first, then the create request).
    public var elapsed: Double
    public var kind: Kind
    public var message: String
    /// Extra members for the JSON form.
    public var fields: [(key: String, value: JSONValue)]

    /// Creates a value from its parts.
    public init(elapsed: Double, kind: Kind, message: String, fields: [(key: String, value: JSONValue)] = []) {
        self.elapsed = elapsed
        self.kind = kind
        self.message = message
        self.fields = fields
    }

    /// `{"t": 0.012, "kind": "created", "message": "…", …fields}`.
    public var json: JSONValue {
        let t = (elapsed * 1000).rounded() / 1000
        return .object([("t", .double(t)), ("kind", .string(kind.rawValue)), ("message", .string(message))] + fields)
    }
}
