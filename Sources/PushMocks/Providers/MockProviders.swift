import HTTP

/// Every registered mock wired to one capture log, fault book, device registry and token store: what
/// `ringcheck mocks` serves (APNs production and sandbox, FCM + OAuth, the control API).
public struct MockProviders: Sendable {
    /// Every mock provider the stack serves, in routing order (on a shared listener the first that
    /// claims a request answers it). One line per provider.
    public static let registered: [any MockProvider.Type] = [
        APNsMock.self,
        FCMMock.self,
        OAuthMock.self,
        OneSignalMock.self,
        DialStackAPIMock.self,
    ]

    /// What the mock trusts.
    public let credentials: MockCredentials
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans
    /// Device tokens known to be unregistered or bound to an environment.
    public let registry: DeviceRegistry
    /// The access tokens issued by the OAuth mock.
    public let tokens: AccessTokenStore
    /// Every provider instance, in registration order.
    public let all: [any MockProvider]
    public let apnsProduction: APNsMock
    public let apnsSandbox: APNsMock
    public let fcm: FCMMock
    public let oauth: OAuthMock
    public let control: ControlAPI

    /// Builds every provider of `registered` (which must include the built-in ones) over shared state;
    /// `persistentDirectory` is where providers keep their secrets across starts (nil: new ones).
    public init(
        credentials: MockCredentials, log: CaptureLog = CaptureLog(), clock: MockClock = .system,
        registered: [any MockProvider.Type] = MockProviders.registered, persistentDirectory: String? = nil
    ) {
        self.credentials = credentials
        self.log = log
        faults = FaultPlans()
        registry = DeviceRegistry()
        tokens = AccessTokenStore()
        let context = MockProviderContext(
            credentials: credentials, log: log, faults: faults, registry: registry, tokens: tokens, clock: clock,
            persistentDirectory: persistentDirectory)
        all = registered.flatMap { $0.make(context) }
        let apns = all.compactMap { $0 as? APNsMock }
        apnsProduction = apns.first { $0.environment == .production }!
        apnsSandbox = apns.first { $0.environment == .sandbox }!
        fcm = all.lazy.compactMap { $0 as? FCMMock }.first!
        oauth = all.lazy.compactMap { $0 as? OAuthMock }.first!
        control = ControlAPI(
            log: log, faults: faults, registry: registry, tokens: tokens, clock: clock,
            routes: all.compactMap { $0 as? any MockControlRoutes })
    }

    /// The APNs mock of `environment`.
    public func apns(_ environment: APNsEnvironment) -> APNsMock {
        environment == .production ? apnsProduction : apnsSandbox
    }

    /// The listeners the providers need, in registration order, each with the providers it serves.
    public var listeners: [(listener: MockListener, providers: [any MockProvider])] {
        var out: [(listener: MockListener, providers: [any MockProvider])] = []
        for provider in all {
            if let i = out.firstIndex(where: { $0.listener.name == provider.listener.name }) {
                out[i].providers.append(provider)
            } else {
                out.append((provider.listener, [provider]))
            }
        }
        return out
    }

    /// What answers the requests on the listener named `name`: its provider, or a router among the
    /// providers sharing it; nil when no provider uses that listener.
    public func handler(forListener name: String) -> (any HTTPHandler)? {
        guard let providers = listeners.first(where: { $0.listener.name == name })?.providers else { return nil }
        return providers.count == 1 ? providers[0] : MockListenerRouter(providers: providers)
    }

    /// The provider serving the real host `host` when impersonating; nil for none.
    public func provider(serving host: ImpersonatedHost) -> (any MockProvider)? {
        all.first { $0.servedHosts.contains(host) }
    }

    /// Every real host name a registered provider may serve.
    public static var impersonatedHosts: [ImpersonatedHost] { registered.flatMap { $0.impersonatedHosts } }
}
