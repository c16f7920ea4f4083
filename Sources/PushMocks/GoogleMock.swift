import HTTP

/// FCM and the OAuth token endpoint on one listener, as `fcm.googleapis.com` and
/// `oauth2.googleapis.com` would be when a backend's names all point at one mock.
///
/// `/v1/projects/…` goes to the FCM mock; everything else to the OAuth mock.
public struct GoogleMock: HTTPHandler {
    public let fcm: FCMMock
    public let oauth: OAuthMock

    /// Creates a value from its parts.
    public init(fcm: FCMMock, oauth: OAuthMock) {
        self.fcm = fcm
        self.oauth = oauth
    }

    /// Answers one request.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path.hasPrefix("/v1/") { return await fcm.handle(request) }
        return await oauth.handle(request)
    }
}
