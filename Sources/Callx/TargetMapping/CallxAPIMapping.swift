import Conformance
import JSON

extension RequestOperation {
    /// Callx's operations (`TargetOperation`) beside the engine's token operations.
    public static let create = RequestOperation(TargetOperation.create)
    public static let answer = RequestOperation(TargetOperation.answer)
    public static let end = RequestOperation(TargetOperation.end)
    public static let get = RequestOperation(TargetOperation.get)
    public static let mediaSession = RequestOperation(TargetOperation.mediaSession)
    public static let events = RequestOperation(TargetOperation.events)

    /// The request operation of a target file's operation.
    public init(_ operation: TargetOperation) { self.init(rawValue: operation.rawValue) }
}

extension TargetOperation {
    /// The target file's operation a request performs; nil for one no target file maps.
    public init?(_ operation: RequestOperation) { self.init(rawValue: operation.rawValue) }
}

/// The engine's view of a Callx target file's mapping (`TargetMapping`; nil: the reference design):
/// every profile's token registrations and deletes, and Callx's call requests, go through it.
struct CallxAPIMapping: TargetAPIMapping {
    var mapping: TargetMapping?

    func wire(_ request: PreparedRequest) -> PreparedRequest { mapping?.apply(request) ?? request }

    /// The mapping's reading of an answer; without one (or for a raw request) the reference design's
    /// answer as it is, a feed page's gap read as a boolean and a media-session answer as its media.
    func normalize(_ operation: RequestOperation?, status: Int, json: JSONValue?) -> NormalizedResponse {
        if let mapping, let operation = operation.flatMap(TargetOperation.init) {
            return mapping.normalize(operation, status: status, json: json)
        }
        if operation == .events, (200..<300).contains(status), let json {
            return NormalizedResponse(status: status, json: FeedGap.canonical(json))
        }
        return NormalizedResponse(status: status, json: json, media: operation == .mediaSession ? json : nil)
    }

    func notApplicableReason(_ scenario: Scenario) -> String? { mapping?.rawRequestProblem(scenario) }

    func unreadableValue(_ member: String, _ value: JSONValue) -> String? {
        mapping?.values.unreadable(member, value)
    }

    /// The engine's reading of the token operations: the file's, or the reference route's.
    private var tokens: TokenAPIMapping { mapping?.tokens ?? TokenAPIMapping() }

    var deletesPerToken: Bool { tokens.deletesPerToken }

    func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    ) {
        tokens.savedValues(ofRegistration: answer)
    }

    var registrationWithoutDelete: String? { tokens.registrationWithoutDelete }

    var deleteTokenRoute: String { tokens.deleteTokenRoute }
}
