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

    /// The token API part of the mapping (registerToken, deleteToken, the `kind` and `apnsEnvironment`
    /// value maps), as the engine reads it (`TokenAPIMapping`).
    public var tokenAPI: TokenAPIMapping {
        var out = TokenAPIMapping()
        for operation in [TargetOperation.registerToken, .deleteToken] {
            let request = RequestOperation(operation)
            if let m = operations[operation] { out.operations[request] = m }
            if declared.contains(operation) { out.declared.insert(request) }
        }
        out.values = values.maps.filter { TokenAPIMapping.enumerations[$0.key] != nil }
        return out
    }

    /// The names registerToken's answer gives for deleteToken (`response.save`).
    public var savedRegistrationValues: [String] { tokenAPI.savedRegistrationValues }

    /// The values registerToken's `answer` gives for deleteToken (`TokenAPIMapping.savedValues`).
    func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    ) {
        tokenAPI.savedValues(ofRegistration: answer)
    }

    /// Whether deleteToken names one registration rather than the device (`TokenAPIMapping.deletesPerToken`).
    public var deletesPerToken: Bool { tokenAPI.deletesPerToken }

    /// A mapping whose token operations, `kind` and `apnsEnvironment` maps are `tokens`' (the engine's
    /// reading of the file) beside no call operation yet.
    init(tokens: TokenAPIMapping) {
        self.init()
        for (operation, m) in tokens.operations {
            if let o = TargetOperation(operation) { operations[o] = m }
        }
        declared = Set(tokens.declared.compactMap(TargetOperation.init))
        values = ValueMaps(values: tokens.values)
    }
}
