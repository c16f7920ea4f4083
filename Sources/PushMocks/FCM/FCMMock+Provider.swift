import HTTP

extension MockProviderID {
    public static let fcm = MockProviderID("fcm")
}

extension PushChannel {
    /// FCM HTTP v1 messages.
    public static let fcm = PushChannel("fcm", provider: .fcm)
}

extension ImpersonatedHost {
    public static let fcm = ImpersonatedHost(name: "fcm.googleapis.com", ports: [443])
}

/// FCM as a registered provider: `/v1/…` on the Google listener it shares with the OAuth mock.
extension FCMMock: MockProvider {
    public static func make(_ context: MockProviderContext) -> [any MockProvider] {
        [
            FCMMock(
                credentials: context.credentials, tokens: context.tokens, log: context.log, faults: context.faults,
                registry: context.registry, clock: context.clock)
        ]
    }

    public static let impersonatedHosts: [ImpersonatedHost] = [.fcm]
    public static let settingNames = ["RINGCHECK_FCM_URL"]

    public static let id = MockProviderID.fcm
    public static let channels = [PushChannel.fcm]
    public var listener: MockListener { MockListener(name: "google") }

    /// The FCM API's paths: `/v1/…`.
    public func claims(_ request: HTTPRequest) -> Bool { request.path.hasPrefix("/v1/") }

    public func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        [("RINGCHECK_FCM_URL", context.baseURL)]
    }
}
