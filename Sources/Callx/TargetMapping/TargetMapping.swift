import Conformance
import JSON

/// The abstract operations scenarios perform; a target file maps each onto the backend's API.
public enum TargetOperation: String, Sendable, CaseIterable, Hashable {
    case registerToken
    case deleteToken
    case create
    case answer
    case end
    case get
    case mediaSession
    case events

    /// The placeholders a path, header or body template of the operation may use.
    public var placeholders: [String] {
        let common = ["userId", "installationId"]
        switch self {
        case .registerToken: return common + ["kind", "token", "appId", "apnsEnvironment"]
        // token: a backend may delete by the push token itself (`DELETE /me/devices/{token}`).
        case .deleteToken: return common + ["kind", "token"]
        // ringSeconds: the short ring a scenario that waits for expiry asks for (`{shortRing: FIELD}`), else absent.
        case .create: return common + ["callId", "calleeUserId", "operationId", "video", "ringSeconds"]
        case .answer: return common + ["callId", "operationId", "expectedRevision"]
        case .end: return common + ["callId", "operationId", "reason"]
        case .get: return common + ["callId"]
        // A fresh key: a backend may want one on media requests (answering with them, say).
        case .mediaSession: return common + ["callId", "operationId"]
        case .events: return common + ["cursor", "limit"]
        }
    }
}

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

    /// Whether the request carries the operation's idempotency key (the canonical body always does).
    public var carriesOperationId: Bool {
        guard let body else { return true }
        let texts = [path] + Array(headers.values) + [body.serialized()]
        return texts.contains { $0.contains("{operationId}") }
    }

    /// The reference design's mapping of `operation`.
    public static func reference(_ operation: TargetOperation) -> OperationMapping {
        let r = TargetRoutes()
        switch operation {
        case .registerToken: return OperationMapping(method: "PUT", path: CanonicalAPI.tokenRoute, installation: .path)
        case .deleteToken: return OperationMapping(method: "DELETE", path: CanonicalAPI.tokenRoute, installation: .path)
        case .create: return OperationMapping(method: "POST", path: r.calls, installation: .none)
        case .answer: return OperationMapping(method: "POST", path: r.answer, installation: .body("installationId"))
        case .end: return OperationMapping(method: "POST", path: r.end, installation: .body("installationId"))
        case .get: return OperationMapping(method: "GET", path: r.call, installation: .none)
        case .mediaSession:
            return OperationMapping(
                method: "POST", path: r.mediaSession, installation: .body("installationId"),
                response: ResponseMapping(media: ""))
        case .events:
            return OperationMapping(
                method: "GET", path: r.events + "?cursor={cursor}&limit={limit}",
                installation: .query("installationId"))
        }
    }
}

/// How a backend's API differs from the reference design, operation by operation.
public struct TargetMapping: Sendable, Equatable {
    /// Operations mapped differently; the others use the reference design's mapping.
    public var operations: [TargetOperation: OperationMapping]
    /// The target's own names for enumeration values, both ways (`values:` in a target file).
    public var values: ValueMaps
    /// Canonical members the target sends as JSON numbers where the reference design has decimal
    /// strings (`numbers: [revision, cursor]`): read back as their decimal text, sent as numbers.
    public var numbers: Set<String>
    /// The operations the target file's `operations:` names (an unnamed one falls back to the reference
    /// design's route, which a backend with its own token API may not have).
    public var declared: Set<TargetOperation> = []

    public init(
        operations: [TargetOperation: OperationMapping] = [:], values: ValueMaps = ValueMaps(),
        numbers: Set<String> = []
    ) {
        self.operations = operations
        self.values = values
        self.numbers = numbers
    }

    public subscript(operation: TargetOperation) -> OperationMapping {
        operations[operation] ?? .reference(operation)
    }

    /// True when `operation` is sent and read exactly as the reference design does.
    public func isReference(_ operation: TargetOperation) -> Bool {
        self[operation] == .reference(operation)
    }

    /// The names registerToken's answer gives for deleteToken (`response.save`).
    public var savedRegistrationValues: [String] { self[.registerToken].response.save.keys.sorted() }

    /// The values registerToken's `answer` gives for deleteToken, by name, and the saves whose path it lacks
    /// (name and path, in name order).
    func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    ) {
        var values: [String: JSONValue] = [:]
        var missing: [(name: String, path: String)] = []
        for (name, path) in self[.registerToken].response.save.sorted(by: { $0.key < $1.key }) {
            if let value = answer?.value(atPath: path) { values[name] = value } else { missing.append((name, path)) }
        }
        return (values, missing)
    }

    /// Whether deleteToken names one registration (its `{token}` or a saved value) rather than the device:
    /// then each token a device registered is deleted on its own.
    public var deletesPerToken: Bool {
        let m = self[.deleteToken]
        var texts = [m.path] + Array(m.headers.values)
        texts += ([m.body].compactMap { $0 } + Array(m.bodyByKind.values)).map { $0.serialized() }
        let names = ["token"] + savedRegistrationValues
        return texts.contains { t in names.contains { t.contains("{\($0)}") } }
    }
}
