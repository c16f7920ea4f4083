import HTTP

/// The handler of a listener several providers share (FCM and the OAuth token endpoint on one Google
/// port, as `fcm.googleapis.com` and `oauth2.googleapis.com` would be when a backend's names all point
/// at one mock): each request goes to the first provider that claims it, else to the last one.
public struct MockListenerRouter: HTTPHandler {
    /// The providers, in registration order.
    public let providers: [any MockProvider]

    /// Creates a value from its parts.
    public init(providers: [any MockProvider]) { self.providers = providers }

    /// Answers one request.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let provider = providers.first { $0.claims(request) } ?? providers[providers.count - 1]
        return await provider.handle(request)
    }
}
