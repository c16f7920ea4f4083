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

    /// The call operations: those of `operations:` Callx decodes (the token operations are the engine's,
    /// `TokenAPIMapping`).
    public static let callOperations = allCases.filter { $0 != .registerToken && $0 != .deleteToken }

    /// What a target file's `operations.<name>:` may say for the operation.
    public var syntax: OperationSyntax {
        OperationSyntax(
            name: rawValue, placeholders: placeholders, readsMedia: self == .mediaSession,
            readsGapStatus: self == .events)
    }

    /// The placeholders a path, header or body template of the operation may use.
    public var placeholders: [String] {
        let common = ["userId", "installationId"]
        switch self {
        case .registerToken, .deleteToken:
            return TokenAPIMapping.syntax.first { $0.name == rawValue }?.placeholders ?? common
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

extension OperationMapping {
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
        case .registerToken, .deleteToken: return TokenAPIMapping.reference(RequestOperation(operation))
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

/// How a backend's API differs from the reference design, operation by operation: Callx's call operations
/// here, the token operations as the engine read them (`tokens`, the target file's `TargetFile.tokenAPI`).
public struct TargetMapping: Sendable, Equatable {
    /// Call operations mapped differently; the others use the reference design's mapping. The token operations
    /// are `tokens`' (an entry for one here is not read).
    public var operations: [TargetOperation: OperationMapping]
    /// The token API (registerToken, deleteToken, the `kind` and `apnsEnvironment` maps, the file-wide
    /// `installation:`), as the engine reads it for every profile's file: held once, not copied.
    public var tokens: TokenAPIMapping
    /// The target's own names for enumeration values, both ways (`values:` in a target file): the token
    /// API's `kind` and `apnsEnvironment` maps and Callx's own, as Callx's requests and answers are renamed.
    public var values: ValueMaps
    /// Canonical members the target sends as JSON numbers where the reference design has decimal
    /// strings (`numbers: [revision, cursor]`): read back as their decimal text, sent as numbers.
    public var numbers: Set<String>
    /// The call operations the target file's `operations:` names (the token operations it names are
    /// `tokens.declared`).
    public var declared: Set<TargetOperation> = []

    public init(
        operations: [TargetOperation: OperationMapping] = [:], tokens: TokenAPIMapping = TokenAPIMapping(),
        values: ValueMaps = ValueMaps(), numbers: Set<String> = []
    ) {
        self.operations = operations
        self.tokens = tokens
        self.values = values
        self.numbers = numbers
    }

    /// A mapping whose token operations are `tokens` (the engine's reading of the file), with their `kind` and
    /// `apnsEnvironment` maps among its values, beside no call operation yet.
    init(tokens: TokenAPIMapping) {
        self.init(tokens: tokens, values: ValueMaps(values: tokens.values))
    }

    public subscript(operation: TargetOperation) -> OperationMapping {
        switch operation {
        case .registerToken, .deleteToken: return tokens[RequestOperation(operation)]
        default: return operations[operation] ?? .reference(operation)
        }
    }

    /// True when `operation` is sent and read exactly as the reference design does.
    public func isReference(_ operation: TargetOperation) -> Bool {
        self[operation] == .reference(operation)
    }

    /// The names registerToken's answer gives for deleteToken (`response.save`).
    public var savedRegistrationValues: [String] { tokens.savedRegistrationValues }

    /// The values registerToken's `answer` gives for deleteToken (`TokenAPIMapping.savedValues`).
    func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    ) {
        tokens.savedValues(ofRegistration: answer)
    }

    /// Whether deleteToken names one registration rather than the device (`TokenAPIMapping.deletesPerToken`).
    public var deletesPerToken: Bool { tokens.deletesPerToken }
}
