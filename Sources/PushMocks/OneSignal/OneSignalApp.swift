import Signing

/// One OneSignal app the mock serves: its App ID and the REST API key that alone may send for it.
/// The mock has two, as the kit needs: the standard app and the separate VoIP app (its own APNs VoIP
/// certificate in the real service).
public struct OneSignalApp: Sendable, Equatable {
    /// Which of the mock's two apps this is.
    public enum Role: String, Sendable, CaseIterable {
        /// The app of ordinary pushes (`RINGCHECK_ONESIGNAL_APP_ID`).
        case standard
        /// The app holding the VoIP certificate (`RINGCHECK_ONESIGNAL_VOIP_APP_ID`).
        case voip
    }

    public var role: Role
    /// A lower-case UUID, as OneSignal shows App IDs.
    public var appID: String
    /// The REST API key (`os_v2_app_…`); a secret.
    public var apiKey: String

    /// Creates a value from its parts.
    public init(role: Role, appID: String, apiKey: String) {
        self.role = role
        self.appID = appID
        self.apiKey = apiKey
    }

    /// A new app with a random App ID and key.
    public static func generate(_ role: Role) -> OneSignalApp {
        OneSignalApp(
            role: role, appID: SecureRandom.uuid(),
            apiKey: "os_v2_app_" + SecureRandom.alphanumeric(56, uppercaseOnly: true).lowercased())
    }
}

/// How the mock answers a notification that reaches nobody: both forms the real API uses.
public enum OneSignalEmptyAudienceAnswer: String, Sendable, CaseIterable {
    /// `{"id": "", "errors": ["All included players are not subscribed"], "recipients": 0}`.
    case notSubscribed
    /// `{"id": "", "errors": {"invalid_aliases": {"external_id": [...]}}}` (no `recipients`).
    case invalidAliases
}
