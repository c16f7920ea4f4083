import HTTP
import JSON

/// How a target's API differs from the canonical requests the engine and the profiles build, as the
/// engine uses it: the request that goes out for a canonical one, the canonical form of its answer,
/// and the target's token API (the route, what a registration's answer keeps for its delete, whether a
/// delete names one token). A profile that reads a target file's mapping supplies one through its
/// configuration (`ProfileConfiguration.apiMapping`); a target without one is spoken to in the
/// canonical shape, and its tokens live at `CanonicalAPI.tokenRoute`.
///
/// ```swift
/// struct PrefixedAPI: TargetAPIMapping {
///     var prefix: String
///     func wire(_ request: PreparedRequest) -> PreparedRequest {
///         var out = request
///         out.path = prefix + request.path
///         return out
///     }
/// }
///
/// struct PagerTargetConfiguration: ProfileConfiguration {
///     var apiMapping: (any TargetAPIMapping)? { PrefixedAPI(prefix: "/api") }
/// }
/// ```
public protocol TargetAPIMapping: Sendable {
    /// The request the target wants for canonical `request` (a raw request, without an operation,
    /// keeps its own method, path and body). The request itself by default.
    func wire(_ request: PreparedRequest) -> PreparedRequest
    /// The canonical form of the target's answer to a request for `operation` (nil: a raw request).
    /// The answer as it is by default.
    func normalize(_ operation: RequestOperation?, status: Int, json: JSONValue?) -> NormalizedResponse
    /// Why `scenario` cannot run against the target through this mapping (a raw request to a route the
    /// target does not have), or nil. Nil by default.
    func notApplicableReason(_ scenario: Scenario) -> String?
    /// Why the target's `value` of canonical member `member` (`reason`, `state`) in a normalized answer
    /// could not be read back to one canonical value (a many-to-one value map), or nil: a check on it is
    /// not applicable rather than failed. Nil by default.
    func unreadableValue(_ member: String, _ value: JSONValue) -> String?

    /// The canonical route of an installation's push token (`{installationId}` and `{kind}` are
    /// filled in), which token registrations and deletes are built on before `wire`.
    var tokenRoute: String { get }
    /// Whether a token delete names one registration (its token, or a value its answer saved) rather
    /// than the installation: then each token an installation registered is deleted on its own. False
    /// by default.
    var deletesPerToken: Bool { get }
    /// The values a granted registration's `answer` keeps for the token's delete, by name, and those
    /// it lacks (name and where it should be). None by default.
    func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    )
    /// `METHOD /path` of a registration the target maps to its own route while it maps no delete (a
    /// guessed delete would only collect 404s), else nil. Nil by default.
    var registrationWithoutDelete: String? { get }
    /// `METHOD /path` the token deletes go to. `DELETE` of `tokenRoute` by default.
    var deleteTokenRoute: String { get }
}

extension TargetAPIMapping {
    public func wire(_ request: PreparedRequest) -> PreparedRequest { request }
    public func normalize(_ operation: RequestOperation?, status: Int, json: JSONValue?) -> NormalizedResponse {
        NormalizedResponse(status: status, json: json)
    }
    public func notApplicableReason(_ scenario: Scenario) -> String? { nil }
    public func unreadableValue(_ member: String, _ value: JSONValue) -> String? { nil }
    public var tokenRoute: String { CanonicalAPI.tokenRoute }
    public var deletesPerToken: Bool { false }
    public func savedValues(ofRegistration answer: JSONValue?) -> (
        values: [String: JSONValue], missing: [(name: String, path: String)]
    ) { ([:], []) }
    public var registrationWithoutDelete: String? { nil }
    public var deleteTokenRoute: String { "DELETE " + tokenRoute }
}

/// The mapping of a target that speaks the canonical shape: every default of `TargetAPIMapping`.
public struct CanonicalAPI: TargetAPIMapping {
    /// The reference design's route of an installation's push token.
    public static let tokenRoute = "/v1/installations/{installationId}/push-tokens/{kind}"

    public init() {}
}

/// A target's answer in the canonical shape, for scenarios and invariants to judge alike.
public struct NormalizedResponse {
    var status: Int
    var json: JSONValue?
    /// The media-session object a 2xx answer carried, if any (its credentials must never travel in a push).
    var media: JSONValue?

    public init(status: Int, json: JSONValue?, media: JSONValue? = nil) {
        self.status = status
        self.json = json
        self.media = media
    }
}

extension Target {
    /// How the target's API differs from the canonical requests: the one its profile configurations
    /// supply, else its token API (`tokenAPI`, the canonical shape for a target that maps none).
    public var apiMapping: any TargetAPIMapping { profileConfiguration.apiMapping ?? tokenAPI }

    /// The canonical route of an installation's push token (`TargetAPIMapping.tokenRoute`).
    public var tokenRoute: String { apiMapping.tokenRoute }

    /// The request as the target wants it (its mapping applied).
    func wire(_ p: PreparedRequest) -> PreparedRequest { apiMapping.wire(p) }

    /// The canonical form of an answer to `operation` (a raw request's answer stays as it is).
    func normalize(_ operation: RequestOperation?, status: Int, json: JSONValue?) -> NormalizedResponse {
        apiMapping.normalize(operation, status: status, json: json)
    }

    /// The HTTP request for `p` (already wired): its credentials, a JSON body, its own headers.
    func clientRequest(_ p: PreparedRequest) -> ClientRequest {
        var headers = HTTPHeaders()
        for (n, v) in (p.credentials ?? [:]).sorted(by: { $0.key < $1.key }) { headers.add(n, v) }
        if p.body != nil { headers.add("content-type", "application/json") }
        for (n, v) in p.headers { headers.set(n, v) }
        return ClientRequest(
            method: p.method, url: baseURL + p.path, headers: headers,
            body: p.body.map { Array($0.serialized().utf8) } ?? [])
    }
}
