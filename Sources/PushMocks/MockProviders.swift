/// Every mock wired to one capture log, fault book, device registry and token store: what
/// `ringcheck mocks` serves (APNs production and sandbox, FCM + OAuth, the control API).
public struct MockProviders: Sendable {
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
    public let apnsProduction: APNsMock
    public let apnsSandbox: APNsMock
    public let fcm: FCMMock
    public let oauth: OAuthMock
    /// FCM and OAuth on one listener.
    public let google: GoogleMock
    public let control: ControlAPI

    /// Creates a value from its parts.
    public init(credentials: MockCredentials, log: CaptureLog = CaptureLog(), clock: MockClock = .system) {
        self.credentials = credentials
        self.log = log
        faults = FaultPlans()
        registry = DeviceRegistry()
        tokens = AccessTokenStore()
        apnsProduction = APNsMock(
            environment: .production, credentials: credentials, log: log, faults: faults, registry: registry,
            clock: clock)
        apnsSandbox = APNsMock(
            environment: .sandbox, credentials: credentials, log: log, faults: faults, registry: registry, clock: clock)
        fcm = FCMMock(
            credentials: credentials, tokens: tokens, log: log, faults: faults, registry: registry, clock: clock)
        oauth = OAuthMock(credentials: credentials, tokens: tokens, log: log, faults: faults, clock: clock)
        google = GoogleMock(fcm: fcm, oauth: oauth)
        control = ControlAPI(log: log, faults: faults, registry: registry, tokens: tokens, clock: clock)
    }

    /// The APNs mock of `environment`.
    public func apns(_ environment: APNsEnvironment) -> APNsMock {
        environment == .production ? apnsProduction : apnsSandbox
    }
}
