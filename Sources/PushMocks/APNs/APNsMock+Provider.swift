import HTTP

extension MockProviderID {
    public static let apns = MockProviderID("apns")
}

extension PushChannel {
    /// VoIP pushes through APNs.
    public static let apnsVoip = PushChannel("apnsVoip", provider: .apns)
}

extension ImpersonatedHost {
    public static let apnsProduction = ImpersonatedHost(
        name: "api.push.apple.com", ports: [443, 2197], initialMaxConcurrentStreams: 1)
    public static let apnsSandbox = ImpersonatedHost(
        name: "api.sandbox.push.apple.com", ports: [443, 2197], initialMaxConcurrentStreams: 1)
    /// The older name of the sandbox, still hard-coded by several widely used Python clients.
    public static let apnsDevelopment = ImpersonatedHost(
        name: "api.development.push.apple.com", ports: [443, 2197], initialMaxConcurrentStreams: 1)
}

/// APNs as a registered provider: production and sandbox, each on its own listener. APNs speaks HTTP/2
/// only (ALPN offers h2 alone), and allows one stream per connection until a valid provider token arrives.
extension APNsMock: MockProvider {
    public static func make(_ context: MockProviderContext) -> [any MockProvider] {
        [APNsEnvironment.production, .sandbox].map {
            APNsMock(
                environment: $0, credentials: context.credentials, log: context.log, faults: context.faults,
                registry: context.registry, clock: context.clock)
        }
    }

    public static let impersonatedHosts: [ImpersonatedHost] = [.apnsProduction, .apnsSandbox, .apnsDevelopment]

    public static let settingNames = [
        "RINGCHECK_APNS_URL", "RINGCHECK_APNS_SANDBOX_URL", "RINGCHECK_APNS_KEY_FILE", "RINGCHECK_APNS_KEY_ID",
        "RINGCHECK_APNS_TEAM_ID", "RINGCHECK_APNS_TOPIC", "RINGCHECK_APNS_BUNDLE_ID", "RINGCHECK_APNS_VOIP_TOPIC",
    ]

    public static let id = MockProviderID.apns
    public static let channels = [PushChannel.apnsVoip]

    public var listener: MockListener {
        MockListener(
            name: environment == .production ? "apns" : "apnsSandbox", offersHTTP1: false,
            initialMaxConcurrentStreams: 1)
    }

    public var servedHosts: [ImpersonatedHost] {
        environment == .production ? [.apnsProduction] : [.apnsSandbox, .apnsDevelopment]
    }

    /// The sandbox gives its URL; production its URL, the `.p8` key (written to the state directory),
    /// its IDs and the topics.
    public func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        guard environment == .production else { return [("RINGCHECK_APNS_SANDBOX_URL", context.baseURL)] }
        let keyFile = try context.keys.apnsKey.writeP8(toDirectory: context.directory)
        let bundleID = context.keys.credentials.bundleID
        return [
            ("RINGCHECK_APNS_URL", context.baseURL), ("RINGCHECK_APNS_KEY_FILE", keyFile),
            ("RINGCHECK_APNS_KEY_ID", context.keys.apnsKey.keyID),
            ("RINGCHECK_APNS_TEAM_ID", context.keys.apnsKey.teamID),
            ("RINGCHECK_APNS_TOPIC", bundleID), ("RINGCHECK_APNS_BUNDLE_ID", bundleID),
            ("RINGCHECK_APNS_VOIP_TOPIC", bundleID + ".voip"),
        ]
    }
}
