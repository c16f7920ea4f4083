import JSON

/// Where the canonical parts of a response are in the target's response.
public struct ResponseMapping: Sendable, Equatable {
    /// Dotted path of the call snapshot (nil: its members are at the top level, as in the reference).
    /// Its members are lifted to the top level, beside `error` on refusals.
    public var snapshot: String?
    /// Dotted path of the media-session object ("" for the whole body; nil when the response has none).
    public var media: String?
    /// Canonical member name → dotted path in the target's response (`answeredByInstallationId`,
    /// `error`, and for the events feed `events`, `nextCursor`, `gap`).
    public var fields: [String: String]
    /// Target status → canonical status (a backend answering conflicts with 412 maps 412: 409).
    public var statuses: [Int: Int]
    /// Canonical member of the media-session object → where the target's answer holds it (the
    /// media operation's `fields`, also read by an answer made through that operation).
    public var mediaFields: [String: FieldSource] = [:]
    /// Target statuses that say "gap" by themselves (`gapStatus: 410` on `events`, as Google's
    /// expired sync tokens do): such an answer reads as a page with `gap: true`.
    public var gapStatuses: Set<Int> = []
    /// A 2xx answer may carry no call snapshot (`snapshotFromGet: true`): then ringcheck reads the
    /// call with a `get` right after, and judges that snapshot as the answer's.
    public var snapshotByGet: Bool = false
    /// registerToken's `save: {NAME: PATH}`: values of a granted registration's answer (a device ID the
    /// backend made up) kept with the token, for deleteToken's `{NAME}` placeholders.
    public var save: [String: String] = [:]

    public init(
        snapshot: String? = nil, media: String? = nil, fields: [String: String] = [:], statuses: [Int: Int] = [:]
    ) {
        self.snapshot = snapshot
        self.media = media
        self.fields = fields
        self.statuses = statuses
    }
}

/// Where a target's answer holds one canonical value.
public enum FieldSource: Sendable, Equatable {
    /// A dotted path in the answer.
    case path(String)
    /// The `exp` claim (seconds) of the JWT at a dotted path, as milliseconds (`{jwtExp: token}`).
    case jwtExpiry(String)
}

/// How one abstract operation is sent to the target and how its answer is read.
public struct OperationMapping: Sendable, Equatable {
    public var method: String
    /// Path template with `{placeholder}`s, optionally with a query (`?after={cursor}`); a query
    /// parameter whose placeholder has no value is left out.
    public var path: String
    /// Body template: a string that is exactly `{name}` becomes that value (any JSON type) and is left
    /// out when there is none; other strings interpolate. Nil sends the canonical body.
    public var body: JSONValue?
    /// Body templates by canonical token kind (`bodyByKind: {apnsVoip: {…}, fcm: {…}}`): a request of a kind
    /// named here sends that body instead of `body` (iOS-only fields need not go to Android).
    public var bodyByKind: [String: JSONValue] = [:]
    /// Extra headers (templates too).
    public var headers: [String: String]
    public var installation: InstallationPlacement
    public var response: ResponseMapping

    public init(
        method: String, path: String, body: JSONValue? = nil, headers: [String: String] = [:],
        installation: InstallationPlacement, response: ResponseMapping = ResponseMapping()
    ) {
        self.method = method.uppercased()
        self.path = path
        self.body = body
        self.headers = headers
        self.installation = installation
        self.response = response
    }
}
