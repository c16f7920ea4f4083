import HTTP

extension MockProviderID {
    public static let oauth = MockProviderID("oauth")
}

extension ImpersonatedHost {
    public static let oauth = ImpersonatedHost(name: "oauth2.googleapis.com", ports: [443])
}

/// Google's OAuth token endpoint as a registered provider, on the Google listener (every path FCM does
/// not claim). It gives the service account, whose `token_uri` names this listener.
extension OAuthMock: MockProvider {
    public static func make(_ context: MockProviderContext) -> [any MockProvider] {
        [
            OAuthMock(
                credentials: context.credentials, tokens: context.tokens, log: context.log, faults: context.faults,
                clock: context.clock)
        ]
    }

    public static let impersonatedHosts: [ImpersonatedHost] = [.oauth]
    public static let settingNames = [
        "RINGCHECK_OAUTH_TOKEN_URL", "RINGCHECK_FCM_SERVICE_ACCOUNT", "RINGCHECK_FCM_PROJECT_ID",
    ]

    public static let id = MockProviderID.oauth
    public var listener: MockListener { MockListener(name: "google") }

    /// The token URL, and the service account (written to the state directory) that names it.
    public func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        let tokenURL = context.baseURL + "/token"
        context.keys.serviceAccount.tokenURI = tokenURL
        let file = context.directory + "/service-account.json"
        try MockStack.write(try context.keys.serviceAccount.json(), to: file, mode: 0o600)
        return [
            ("RINGCHECK_OAUTH_TOKEN_URL", tokenURL), ("RINGCHECK_FCM_SERVICE_ACCOUNT", file),
            ("RINGCHECK_FCM_PROJECT_ID", context.projectID),
        ]
    }
}
