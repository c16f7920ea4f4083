import HTTP

/// Control-API endpoints a provider adds for its own state (the OneSignal mock's audience), served
/// beside the shared ones under `/v1/<provider id>/…`. `ControlAPI` asks each in registration order.
public protocol MockControlRoutes: Sendable {
    /// The answer to a control request for one of its endpoints; nil when the request is not for it.
    func handleControl(_ request: HTTPRequest) async -> HTTPResponse?
}
