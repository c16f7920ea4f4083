/// How the OneSignal kit server reaches OneSignal: the seed's `ONESIGNAL_*` settings, the API base URL
/// and the CA file to trust. Without an app ID and REST key every send is a no-op reporting not delivered.
public struct OneSignalConfiguration: Sendable {
    /// The environment variables the kit reads (the seed's names plus the base URL and CA file).
    public enum Variable {
        public static let appId = "ONESIGNAL_APP_ID"
        public static let apiKey = "ONESIGNAL_API_KEY"
        public static let voipAppId = "ONESIGNAL_VOIP_APP_ID"
        public static let voipApiKey = "ONESIGNAL_VOIP_API_KEY"
        public static let apiURL = "ONESIGNAL_API_URL"
        public static let caFile = "ONESIGNAL_CA_FILE"
        /// Every name above.
        public static let all = [appId, apiKey, voipAppId, voipApiKey, apiURL, caFile]
    }

    /// OneSignal's older API base, which the kit posts `/notifications` under.
    public static let defaultAPIURL = "https://onesignal.com/api/v1"

    /// The standard app (`ONESIGNAL_APP_ID` / `ONESIGNAL_API_KEY`); nil when either is unset.
    public var standardApp: OneSignalAppCredentials?
    /// The separate VoIP app (`ONESIGNAL_VOIP_APP_ID` / `ONESIGNAL_VOIP_API_KEY`); nil when either is unset.
    public var voipApp: OneSignalAppCredentials?
    /// The API base without a trailing slash; requests go to `<apiURL>/notifications`.
    public var apiURL: String
    /// A PEM file of CA certificates to trust instead of the system store.
    public var caFile: String?
    /// The defects switched on; empty for a conforming kit.
    public var defects: Set<OneSignalDefect>

    public init(
        standardApp: OneSignalAppCredentials?, voipApp: OneSignalAppCredentials?, apiURL: String = defaultAPIURL,
        caFile: String? = nil,
        defects: Set<OneSignalDefect> = []
    ) {
        self.standardApp = standardApp
        self.voipApp = voipApp
        var url = apiURL
        while url.hasSuffix("/") { url.removeLast() }
        self.apiURL = url
        self.caFile = caFile
        self.defects = defects
    }

    /// The settings as the seed's kit reads them from its environment (empty values count as unset).
    public init(environment: [String: String], defects: Set<OneSignalDefect> = []) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        self.init(
            standardApp: OneSignalAppCredentials(id: value(Variable.appId), key: value(Variable.apiKey)),
            voipApp: OneSignalAppCredentials(id: value(Variable.voipAppId), key: value(Variable.voipApiKey)),
            apiURL: value(Variable.apiURL) ?? Self.defaultAPIURL, caFile: value(Variable.caFile), defects: defects)
    }

    /// Whether push is on: the standard app ID and key are both set.
    public var isConfigured: Bool { standardApp != nil }

    /// `<apiURL>/notifications`.
    public var notificationsURL: String { apiURL + "/notifications" }
}

/// One OneSignal app: its ID and REST API key (the key is never logged).
public struct OneSignalAppCredentials: Sendable, Equatable {
    public var id: String
    public var key: String

    public init(id: String, key: String) {
        self.id = id
        self.key = key
    }

    /// An app when both parts are given, else nil.
    public init?(id: String?, key: String?) {
        guard let id, let key, !id.isEmpty, !key.isEmpty else { return nil }
        self.init(id: id, key: key)
    }
}
