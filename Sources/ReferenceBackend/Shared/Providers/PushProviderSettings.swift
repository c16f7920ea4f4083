#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the reference backend sends pushes and with which credentials, read from the
/// `RINGCHECK_*` variables that `ringcheck mocks --env-file F` writes — the way a user's own
/// backend would be configured for the mocks (or, with the real hosts, for APNs and FCM).
public struct PushProviderSettings: Sendable, Equatable {
    /// Base URL of APNs production, e.g. `https://api.push.apple.com`.
    public var apnsURL: String
    /// Base URL of APNs sandbox, e.g. `https://api.sandbox.push.apple.com`.
    public var apnsSandboxURL: String
    /// Base URL of FCM HTTP v1; `/v1/projects/{id}/messages:send` is appended.
    public var fcmURL: String
    /// The OAuth token endpoint; nil uses the service account's `token_uri`.
    public var oauthTokenURL: String?
    /// A PEM file of CAs to trust instead of the system store (the mocks' CA).
    public var caFile: String?
    /// The APNs `.p8` key file, its key ID and team ID.
    public var apnsKeyFile: String
    public var apnsKeyID: String
    public var apnsTeamID: String
    /// The app's bundle ID (`RINGCHECK_APNS_BUNDLE_ID`, or `RINGCHECK_APNS_TOPIC`, which is the same).
    public var apnsBundleID: String
    /// The topic of VoIP pushes (`RINGCHECK_APNS_VOIP_TOPIC`): `<bundleID>.voip` unless set otherwise.
    public var apnsVoIPTopic: String
    /// The Google service-account JSON file.
    public var fcmServiceAccountFile: String
    /// The Firebase project; nil uses the service account's `project_id`.
    public var fcmProjectID: String?

    public init(
        apnsURL: String, apnsSandboxURL: String, fcmURL: String, oauthTokenURL: String? = nil, caFile: String? = nil,
        apnsKeyFile: String, apnsKeyID: String, apnsTeamID: String, apnsBundleID: String,
        apnsVoIPTopic: String? = nil, fcmServiceAccountFile: String, fcmProjectID: String? = nil
    ) {
        self.apnsURL = Self.trimmingSlash(apnsURL)
        self.apnsSandboxURL = Self.trimmingSlash(apnsSandboxURL)
        self.fcmURL = Self.trimmingSlash(fcmURL)
        self.oauthTokenURL = oauthTokenURL
        self.caFile = caFile
        self.apnsKeyFile = apnsKeyFile
        self.apnsKeyID = apnsKeyID
        self.apnsTeamID = apnsTeamID
        self.apnsBundleID = apnsBundleID
        self.apnsVoIPTopic = apnsVoIPTopic ?? apnsBundleID + ".voip"
        self.fcmServiceAccountFile = fcmServiceAccountFile
        self.fcmProjectID = fcmProjectID
    }

    /// The variables that must be set, with what each one is.
    public static let requiredVariables: [(name: String, meaning: String)] = [
        ("RINGCHECK_APNS_URL", "base URL of APNs production"),
        ("RINGCHECK_APNS_SANDBOX_URL", "base URL of APNs sandbox"),
        ("RINGCHECK_FCM_URL", "base URL of FCM HTTP v1"),
        ("RINGCHECK_APNS_KEY_FILE", "the APNs .p8 signing key"),
        ("RINGCHECK_APNS_KEY_ID", "the key's 10-character key ID"),
        ("RINGCHECK_APNS_TEAM_ID", "the 10-character team ID"),
        ("RINGCHECK_APNS_TOPIC", "the app's bundle ID (or set RINGCHECK_APNS_BUNDLE_ID)"),
        ("RINGCHECK_FCM_SERVICE_ACCOUNT", "the Google service-account JSON file"),
    ]

    /// The variables that may be set: `RINGCHECK_CA_FILE` (else the system trust store),
    /// `RINGCHECK_OAUTH_TOKEN_URL` (else the service account's `token_uri`), `RINGCHECK_FCM_PROJECT_ID`
    /// (else its `project_id`), `RINGCHECK_APNS_BUNDLE_ID` (instead of `RINGCHECK_APNS_TOPIC`) and
    /// `RINGCHECK_APNS_VOIP_TOPIC` (else the bundle ID with `.voip`).
    public static let optionalVariables = [
        "RINGCHECK_CA_FILE", "RINGCHECK_OAUTH_TOKEN_URL", "RINGCHECK_FCM_PROJECT_ID", "RINGCHECK_APNS_BUNDLE_ID",
        "RINGCHECK_APNS_VOIP_TOPIC",
    ]

    /// Reads the settings from `environment`; throws naming every missing variable and how to get them.
    public init(environment env: [String: String]) throws(PushProviderSettingsError) {
        func optional(_ name: String) -> String? { env[name].flatMap { $0.isEmpty ? nil : $0 } }
        // The topic is the bundle ID (as ARCHITECTURE.md fixes it); RINGCHECK_APNS_BUNDLE_ID says so by name.
        let bundleID = optional("RINGCHECK_APNS_BUNDLE_ID") ?? optional("RINGCHECK_APNS_TOPIC")
        let missing = Self.requiredVariables.filter {
            $0.name == "RINGCHECK_APNS_TOPIC" ? bundleID == nil : (env[$0.name] ?? "").isEmpty
        }
        guard missing.isEmpty, let bundleID else { throw PushProviderSettingsError(missing: missing.map(\.name)) }
        self.init(
            apnsURL: env["RINGCHECK_APNS_URL"]!, apnsSandboxURL: env["RINGCHECK_APNS_SANDBOX_URL"]!,
            fcmURL: env["RINGCHECK_FCM_URL"]!, oauthTokenURL: optional("RINGCHECK_OAUTH_TOKEN_URL"),
            caFile: optional("RINGCHECK_CA_FILE"), apnsKeyFile: env["RINGCHECK_APNS_KEY_FILE"]!,
            apnsKeyID: env["RINGCHECK_APNS_KEY_ID"]!, apnsTeamID: env["RINGCHECK_APNS_TEAM_ID"]!,
            apnsBundleID: bundleID, apnsVoIPTopic: optional("RINGCHECK_APNS_VOIP_TOPIC"),
            fcmServiceAccountFile: env["RINGCHECK_FCM_SERVICE_ACCOUNT"]!,
            fcmProjectID: optional("RINGCHECK_FCM_PROJECT_ID"))
    }

    private static func trimmingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

/// The environment lacks push settings: the backend refuses to start rather than drop pushes.
public struct PushProviderSettingsError: Error, Sendable, CustomStringConvertible {
    /// The required variables that are unset or empty.
    public var missing: [String]

    public var description: String {
        var out = "the reference backend sends real pushes and needs its push settings; missing: "
        out += missing.joined(separator: ", ") + "\n"
        out += "To use the mock providers: 'ringcheck mocks --env-file mocks.env' in another terminal, then "
        out += "'source mocks.env' before starting the backend. For the real APNs and FCM, set the variables to "
        out += "https://api.push.apple.com, https://api.sandbox.push.apple.com, https://fcm.googleapis.com, your "
        out += ".p8 key, its key ID, your team ID, your bundle ID and your Firebase service-account file."
        return out
    }
}
