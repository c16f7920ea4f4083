import HTTP

/// Control-API endpoints a provider adds for its own state (the OneSignal mock's audience), served
/// beside the shared ones under `/v1/<provider id>/…`. `ControlAPI` puts them in its one route table,
/// so their 404, 405 (with `Allow`) and unknown query parameters are answered like its own.
public protocol MockControlRoutes: Sendable {
    /// The endpoints it serves; their paths must not overlap the shared ones or another provider's.
    var controlEndpoints: [ControlEndpoint] { get }
    /// The answer to a request the route table matched to one of `controlEndpoints`.
    func handleControl(_ request: ControlRequest) async -> HTTPResponse
}

/// A control request matched to its endpoint.
public struct ControlRequest: Sendable {
    /// The request as received.
    public var http: HTTPRequest
    /// The endpoint the route table matched.
    public var endpoint: ControlEndpoint
    /// The path parameters by name (`id` of `/v1/faults/{id}`), percent-decoded.
    public var parameters: [String: String]

    /// A matched request from its parts.
    public init(http: HTTPRequest, endpoint: ControlEndpoint, parameters: [String: String] = [:]) {
        self.http = http
        self.endpoint = endpoint
        self.parameters = parameters
    }

    /// The request's query parameters, percent-decoded.
    public var query: [String: String] { http.query }
}
