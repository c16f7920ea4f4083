import HTTP
import InputLimits
import JSON

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
    public static let listeners = [MockListener(name: "google")]
    public static func realHost(of capture: Capture) -> String { ImpersonatedHost.oauth.name }
    /// The base64 lines of the service account's `private_key`.
    public static func keyLines(_ settings: MockSettings) -> [String] {
        guard let data = try? BoundedFile.bytes(settings.fcmServiceAccountFile),
            let json = try? JSONValue.parse(data)
        else { return [] }
        return MockKeyMaterial.keyLines(ofPEM: json["private_key"]?.stringValue)
    }
    public static let displayName = "Google OAuth"

    public func consoleLines(_ s: MockSettings) -> (endpoints: [String], credentials: [String]) {
        (
            [MockConsole.line("Google OAuth", s.oauthTokenURL)],
            [MockConsole.line("Service account", s.fcmServiceAccountFile)]
        )
    }

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
