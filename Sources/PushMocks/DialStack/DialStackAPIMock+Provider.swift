import HTTP
import Signing

extension MockProviderID {
    public static let dialstack = MockProviderID("dialstack")
}

/// DialStack's API as a registered provider: one TLS listener (HTTP/1.1 and h2), its base URL and an API key in
/// the settings. It impersonates no host: the seed names none for the API.
extension DialStackAPIMock: MockProvider {
    public static func make(_ context: MockProviderContext) -> [any MockProvider] {
        [
            DialStackAPIMock(
                apiKey: "sk_test_ringcheck_" + MockIDs.hex(SecureRandom.bytes(16)), log: context.log,
                faults: context.faults, clock: context.clock)
        ]
    }

    public static let impersonatedHosts: [ImpersonatedHost] = []
    public static let settingNames = ["RINGCHECK_DIALSTACK_API_URL", "RINGCHECK_DIALSTACK_API_KEY"]
    public static let id = MockProviderID.dialstack
    public static let listeners = [MockListener(name: "dialstack")]
    public static let displayName = "DialStack API"

    /// The users route; the key stays in the settings files.
    public func consoleLines(_ s: MockSettings) -> (endpoints: [String], credentials: [String]) {
        let url = s.extra.first { $0.name == "RINGCHECK_DIALSTACK_API_URL" }?.value ?? "-"
        return (
            [MockConsole.line("DialStack API", "\(url)/v1/users/{id}  (users.update: PATCH, POST or PUT)")],
            [MockConsole.line("DialStack key", "any bearer key (RINGCHECK_DIALSTACK_API_KEY in the settings files)")]
        )
    }

    /// The base URL (`$URL/v1/users/{id}`, or any prefix before `users/{id}`) and the key handed to backends.
    public func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
        [("RINGCHECK_DIALSTACK_API_URL", context.baseURL), ("RINGCHECK_DIALSTACK_API_KEY", apiKey)]
    }
}

extension MockProviders {
    /// The DialStack API mock, when it is registered.
    public var dialStackAPI: DialStackAPIMock? { all.lazy.compactMap { $0 as? DialStackAPIMock }.first }
}
