import HTTP
import InputLimits
import Signing

extension MockProviderID {
    public static let apns = MockProviderID("apns")
}

extension PushChannel {
    /// VoIP pushes through APNs.
    public static let apnsVoip = PushChannel(
        "apnsVoip", carrier: APNsMock.self, hasEnvironments: true, tokenKind: .voip)
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

    /// Production's, then the sandbox's.
    public static let listeners = ["apns", "apnsSandbox"].map {
        MockListener(name: $0, offersHTTP1: false, initialMaxConcurrentStreams: 1)
    }
    public var listener: MockListener { Self.listeners[environment == .production ? 0 : 1] }

    /// 32 random bytes in hexadecimal, as iOS gives.
    public static func newDeviceToken(for channel: PushChannel) -> String { MockIDs.hex(SecureRandom.bytes(32)) }
    /// 64 to 200 hexadecimal digits: what the mock does not refuse as `BadDeviceToken`.
    public static func isWellFormedDeviceToken(_ token: String, for channel: PushChannel) -> Bool {
        isWellFormedDeviceToken(token)
    }
    /// APNs reads the hexadecimal digits of a token in either case.
    public static func sameDeviceToken(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
    /// The environment's host.
    public static func realHost(of capture: Capture) -> String {
        (capture.environment == .sandbox ? ImpersonatedHost.apnsSandbox : .apnsProduction).name
    }
    /// 410 `Unregistered`, 400 `BadDeviceToken` (and 400 with FCM's `INVALID_ARGUMENT`, as the engine
    /// always counted it).
    public static func meansTokenGone(_ answer: FaultResponse) -> Bool {
        switch answer.status ?? 0 {
        case 410: return true
        case 400: return answer.reason == APNsReason.badDeviceToken.rawValue || answer.errorCode == "INVALID_ARGUMENT"
        default: return false
        }
    }
    /// The base64 lines of the `.p8` key.
    public static func keyLines(_ settings: MockSettings) -> [String] {
        MockKeyMaterial.keyLines(ofPEM: try? BoundedFile.text(settings.apnsKeyFile))
    }
    public static let displayName = "APNs"

    /// Production's endpoint, key and bundle ID; the sandbox's endpoint.
    public func consoleLines(_ s: MockSettings) -> (endpoints: [String], credentials: [String]) {
        guard environment == .production else { return ([MockConsole.line("APNs (sandbox)", s.apnsSandboxURL)], []) }
        return (
            [MockConsole.line("APNs (production)", s.apnsURL + "      POST /3/device/<token>")],
            [
                MockConsole.line("APNs key (.p8)", "\(s.apnsKeyFile)  key ID \(s.apnsKeyID), team ID \(s.apnsTeamID)"),
                MockConsole.line("APNs bundle ID", "\(s.apnsBundleID)  (VoIP topic \(s.apnsVoIPTopic))"),
            ]
        )
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
