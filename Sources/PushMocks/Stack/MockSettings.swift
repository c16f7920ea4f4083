import JSON

/// Where the mocks listen and which credentials they trust: what a backend under test needs to be
/// pointed at them. Written by `ringcheck mocks` as shell `export` lines and as JSON, with the
/// variable names fixed in ARCHITECTURE.md.
public struct MockSettings: Sendable, Equatable {
    public var apnsURL: String
    public var apnsSandboxURL: String
    public var fcmURL: String
    public var oauthTokenURL: String
    public var caFile: String
    public var apnsKeyFile: String
    public var apnsKeyID: String
    public var apnsTeamID: String
    /// The app's bundle ID the mock APNs expects: the topic of alert and background pushes
    /// (`RINGCHECK_APNS_TOPIC` and `RINGCHECK_APNS_BUNDLE_ID`).
    public var apnsBundleID: String
    public var fcmServiceAccountFile: String
    public var fcmProjectID: String
    public var controlURL: String
    /// The TLS listeners presenting the real host names (`ADDR:PORT`), when impersonation is on.
    public var impersonateAddresses: [String]
    /// The HTTPS forward proxy for the real host names (`http://ADDR:PORT`), when it runs.
    public var httpsProxy: String?
    /// Settings of registered providers beyond the built-in ones (`MockProvider.settingNames`), in
    /// registration order, written after the built-in ones.
    public var extra: [Variable] = []

    /// One environment variable.
    public struct Variable: Sendable, Equatable {
        public var name: String
        public var value: String

        /// Creates a value from its parts.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(
        apnsURL: String, apnsSandboxURL: String, fcmURL: String, oauthTokenURL: String, caFile: String,
        apnsKeyFile: String, apnsKeyID: String, apnsTeamID: String, apnsBundleID: String, fcmServiceAccountFile: String,
        fcmProjectID: String, controlURL: String, impersonateAddresses: [String] = [], httpsProxy: String? = nil
    ) {
        self.apnsURL = apnsURL
        self.apnsSandboxURL = apnsSandboxURL
        self.fcmURL = fcmURL
        self.oauthTokenURL = oauthTokenURL
        self.caFile = caFile
        self.apnsKeyFile = apnsKeyFile
        self.apnsKeyID = apnsKeyID
        self.apnsTeamID = apnsTeamID
        self.apnsBundleID = apnsBundleID
        self.fcmServiceAccountFile = fcmServiceAccountFile
        self.fcmProjectID = fcmProjectID
        self.controlURL = controlURL
        self.impersonateAddresses = impersonateAddresses
        self.httpsProxy = httpsProxy
    }

    /// The settings as `(variable, value)` pairs, in the documented order; the impersonation ones
    /// (`RINGCHECK_IMPERSONATE_ADDRESSES`, space-separated, and `RINGCHECK_HTTPS_PROXY`) only when set.
    public var environment: [(name: String, value: String)] {
        var pairs = required + extra.map { ($0.name, $0.value) }
        if !impersonateAddresses.isEmpty {
            pairs.append(("RINGCHECK_IMPERSONATE_ADDRESSES", impersonateAddresses.joined(separator: " ")))
        }
        if let httpsProxy { pairs.append(("RINGCHECK_HTTPS_PROXY", httpsProxy)) }
        return pairs
    }

    private var required: [(name: String, value: String)] {
        [
            ("RINGCHECK_APNS_URL", apnsURL),
            ("RINGCHECK_APNS_SANDBOX_URL", apnsSandboxURL),
            ("RINGCHECK_FCM_URL", fcmURL),
            ("RINGCHECK_OAUTH_TOKEN_URL", oauthTokenURL),
            ("RINGCHECK_CA_FILE", caFile),
            ("RINGCHECK_APNS_KEY_FILE", apnsKeyFile),
            ("RINGCHECK_APNS_KEY_ID", apnsKeyID),
            ("RINGCHECK_APNS_TEAM_ID", apnsTeamID),
            ("RINGCHECK_APNS_TOPIC", apnsBundleID),
            ("RINGCHECK_APNS_BUNDLE_ID", apnsBundleID),
            ("RINGCHECK_APNS_VOIP_TOPIC", apnsVoIPTopic),
            ("RINGCHECK_FCM_SERVICE_ACCOUNT", fcmServiceAccountFile),
            ("RINGCHECK_FCM_PROJECT_ID", fcmProjectID),
            ("RINGCHECK_CONTROL_URL", controlURL),
        ]
    }

    /// The variables `required` writes: the ones every stack has.
    static let builtInNames: Set<String> = [
        "RINGCHECK_APNS_URL", "RINGCHECK_APNS_SANDBOX_URL", "RINGCHECK_FCM_URL", "RINGCHECK_OAUTH_TOKEN_URL",
        "RINGCHECK_CA_FILE", "RINGCHECK_APNS_KEY_FILE", "RINGCHECK_APNS_KEY_ID", "RINGCHECK_APNS_TEAM_ID",
        "RINGCHECK_APNS_TOPIC", "RINGCHECK_APNS_BUNDLE_ID", "RINGCHECK_APNS_VOIP_TOPIC",
        "RINGCHECK_FCM_SERVICE_ACCOUNT", "RINGCHECK_FCM_PROJECT_ID", "RINGCHECK_CONTROL_URL",
    ]

    /// Every variable a stack of `providers` writes: the built-in ones, the providers' own, and the impersonation
    /// ones when the stack impersonates (`RINGCHECK_IMPERSONATE_ADDRESSES` with listeners, `RINGCHECK_HTTPS_PROXY`
    /// with a proxy). A target's `lifecycle.environment` may name any of them as `${NAME}`.
    public static func names(
        providers: [any MockProvider.Type] = MockProviders.registered, impersonation: ImpersonationOptions? = nil
    ) -> Set<String> {
        var out = builtInNames.union(providers.flatMap { $0.settingNames })
        if let impersonation {
            if !impersonation.listen.isEmpty { out.insert("RINGCHECK_IMPERSONATE_ADDRESSES") }
            if impersonation.proxy != nil { out.insert("RINGCHECK_HTTPS_PROXY") }
        }
        return out
    }

    /// The topic of VoIP pushes: `<bundle ID>.voip` (`RINGCHECK_APNS_VOIP_TOPIC`).
    public var apnsVoIPTopic: String { apnsBundleID + ".voip" }

    /// Reads the settings from environment variables; throws naming every missing variable. The bundle ID
    /// comes from `RINGCHECK_APNS_BUNDLE_ID`, else `RINGCHECK_APNS_TOPIC`.
    /// Settings named by `providers` beyond the built-in ones go to `extra`.
    public init(
        environment env: [String: String], providers: [any MockProvider.Type] = MockProviders.registered
    ) throws(MockSettingsError) {
        let names = [
            "RINGCHECK_APNS_URL", "RINGCHECK_APNS_SANDBOX_URL", "RINGCHECK_FCM_URL", "RINGCHECK_OAUTH_TOKEN_URL",
            "RINGCHECK_CA_FILE", "RINGCHECK_APNS_KEY_FILE", "RINGCHECK_APNS_KEY_ID", "RINGCHECK_APNS_TEAM_ID",
            "RINGCHECK_APNS_TOPIC", "RINGCHECK_FCM_SERVICE_ACCOUNT", "RINGCHECK_FCM_PROJECT_ID",
            "RINGCHECK_CONTROL_URL",
        ]
        let bundleID = [env["RINGCHECK_APNS_BUNDLE_ID"], env["RINGCHECK_APNS_TOPIC"]].compactMap { $0 }.first {
            !$0.isEmpty
        }
        let missing = names.filter { $0 == "RINGCHECK_APNS_TOPIC" ? bundleID == nil : (env[$0] ?? "").isEmpty }
        guard missing.isEmpty, let bundleID else { throw MockSettingsError(missing: missing) }
        self.init(
            apnsURL: env["RINGCHECK_APNS_URL"]!, apnsSandboxURL: env["RINGCHECK_APNS_SANDBOX_URL"]!,
            fcmURL: env["RINGCHECK_FCM_URL"]!, oauthTokenURL: env["RINGCHECK_OAUTH_TOKEN_URL"]!,
            caFile: env["RINGCHECK_CA_FILE"]!, apnsKeyFile: env["RINGCHECK_APNS_KEY_FILE"]!,
            apnsKeyID: env["RINGCHECK_APNS_KEY_ID"]!, apnsTeamID: env["RINGCHECK_APNS_TEAM_ID"]!,
            apnsBundleID: bundleID, fcmServiceAccountFile: env["RINGCHECK_FCM_SERVICE_ACCOUNT"]!,
            fcmProjectID: env["RINGCHECK_FCM_PROJECT_ID"]!, controlURL: env["RINGCHECK_CONTROL_URL"]!,
            impersonateAddresses: (env["RINGCHECK_IMPERSONATE_ADDRESSES"] ?? "").split(separator: " ").map(String.init),
            httpsProxy: env["RINGCHECK_HTTPS_PROXY"].flatMap { $0.isEmpty ? nil : $0 })
        var seen = Self.builtInNames
        for name in providers.flatMap({ $0.settingNames }) where seen.insert(name).inserted {
            if let value = env[name], !value.isEmpty { extra.append(Variable(name: name, value: value)) }
        }
    }

    /// Shell `export` lines, values single-quoted so any path survives `source`.
    public func envFile() -> String {
        var out = "# Written by ringcheck mocks: point a backend under test at the mock push providers.\n"
        for (name, value) in environment {
            out +=
                "export \(name)='\(value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''"))'\n"
        }
        return out
    }

    /// The same settings as a JSON object keyed by variable name.
    public func json() -> String {
        JSONValue.object(environment.map { (key: $0.name, value: .string($0.value)) }).serialized(pretty: true) + "\n"
    }
}

/// The environment lacks settings the mocks would have written.
public struct MockSettingsError: Error, Sendable, CustomStringConvertible {
    public var missing: [String]
    public var description: String {
        "missing mock settings: \(missing.joined(separator: ", ")) (run 'ringcheck mocks --env-file F' and 'source F')"
    }
}
