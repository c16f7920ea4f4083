import HTTP

/// One mock push provider the stack serves (APNs, FCM, the OAuth token endpoint; a OneSignal API or a
/// webhook receiver would be further ones): which mock it is, the listener it needs, the real host names
/// it stands in for, and the settings a backend under test is given to reach it. `MockProviders` builds
/// every registered provider over one capture log, fault book, device registry and token store;
/// `MockStack` knows them only through this protocol.
///
/// A new provider is one file with a type conforming to `MockProvider` and one line in
/// `MockProviders.registered`.
public protocol MockProvider: HTTPHandler {
    /// The instances this provider runs over the shared state (APNs: production and sandbox).
    static func make(_ context: MockProviderContext) -> [any MockProvider]
    /// Every real host name an instance may serve, known before any is built (for the certificate,
    /// the hosts line and the proxy's refusals).
    static var impersonatedHosts: [ImpersonatedHost] { get }
    /// The setting (environment variable) names its instances contribute, so `MockSettings` can read
    /// them back from an environment.
    static var settingNames: [String] { get }

    /// Which mock this is: the `mock` of its captures and fault plans.
    static var id: MockProviderID { get }
    /// The device channels whose pushes it carries (APNs: `apnsVoip`); none for a provider that is not
    /// a push channel (OAuth).
    static var channels: [PushChannel] { get }
    /// The listener it is served on; instances naming the same listener share it.
    var listener: MockListener { get }
    /// The real host names this instance answers for when impersonating.
    var servedHosts: [ImpersonatedHost] { get }
    /// Whether a request on a shared listener is for this instance (asked in registration order; the
    /// first that claims it answers).
    func claims(_ request: HTTPRequest) -> Bool
    /// The settings a backend needs, once the listener is bound at `context.baseURL`; may write key
    /// files to `context.directory` and complete `context.keys`.
    func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)]
}

extension MockProvider {
    /// Which mock this is: its type's ID.
    public var id: MockProviderID { Self.id }
    /// No channels.
    public static var channels: [PushChannel] { [] }
    /// Every host of the type.
    public var servedHosts: [ImpersonatedHost] { Self.impersonatedHosts }
    /// Claims every request.
    public func claims(_ request: HTTPRequest) -> Bool { true }
}

/// The state every provider shares: what it trusts, where it records, what it consults.
public struct MockProviderContext: Sendable {
    /// What the mocks trust.
    public var credentials: MockCredentials
    /// Where every request is recorded.
    public var log: CaptureLog
    /// The fault plans consulted on every request.
    public var faults: FaultPlans
    /// Device tokens known to be unregistered or bound to an environment.
    public var registry: DeviceRegistry
    /// The access tokens issued by the OAuth mock.
    public var tokens: AccessTokenStore
    /// The time source for token checks and timestamps.
    public var clock: MockClock
    /// The state directory when keys are kept across starts (`MockStack.Options.persistentKeys`): a
    /// provider with secrets of its own keeps them there too. Nil when every start makes new ones.
    public var persistentDirectory: String? = nil
}

/// What a provider's settings are made from: where its listener is bound and where key files go.
public struct MockSettingsContext: Sendable {
    /// `https://HOST:PORT` (or `http://` for a plain listener) of the provider's listener.
    public var baseURL: String
    /// The state directory.
    public var directory: String
    /// The key material; a provider may complete it (the service account's `token_uri`).
    public var keys: MockKeyMaterial
    /// The Google project the mocks play.
    public var projectID: String
}

/// The listener a provider needs.
public struct MockListener: Sendable, Equatable {
    /// The listener's name: the key of its port in `MockStack.Options.ports` (`apns`, `apnsSandbox`, `google`).
    public var name: String
    /// TLS with the mock certificate; false for plain HTTP.
    public var tls: Bool
    /// Whether ALPN offers HTTP/1.1 besides h2 (TLS listeners).
    public var offersHTTP1: Bool
    /// SETTINGS_MAX_CONCURRENT_STREAMS of a fresh connection.
    public var initialMaxConcurrentStreams: UInt32

    /// Creates a value from its parts.
    public init(name: String, tls: Bool = true, offersHTTP1: Bool = true, initialMaxConcurrentStreams: UInt32 = 100) {
        self.name = name
        self.tls = tls
        self.offersHTTP1 = offersHTTP1
        self.initialMaxConcurrentStreams = initialMaxConcurrentStreams
    }
}
