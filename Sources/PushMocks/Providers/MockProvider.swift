import HTTP
import Signing

/// One mock push provider the stack serves (APNs, FCM, the OAuth token endpoint; a OneSignal API or a
/// webhook receiver would be further ones): which mock it is, the listener it needs, the real host names
/// it stands in for, and the settings a backend under test is given to reach it. `MockProviders` builds
/// every registered provider over one capture log, fault book, device registry and token store;
/// `MockStack` knows them only through this protocol.
///
/// A new provider is one file with a type conforming to `MockProvider` and one line in
/// `MockProviders.registered`. A provider that carries pushes declares its channels and says what they
/// mean to the engine (token shape, which capture reaches which device, real host, gone-token answers,
/// what to redact, its name in reports); each has a default, so it overrides what differs:
///
/// ```swift
/// final class PagerMock: MockProvider {
///     static let id = MockProviderID("pager")
///     static let channels = [PushChannel("pager", carrier: PagerMock.self)]
///     static let listeners = [MockListener(name: "pager", tls: false)]  // `mocks --port pager=PORT`
///     static let impersonatedHosts: [ImpersonatedHost] = []
///     static let settingNames = ["RINGCHECK_PAGER_URL"]
///     static let displayName = "Pager"                    // "Pager refused 1 push to b-pager: 410"
///     static func meansTokenGone(_ answer: FaultResponse) -> Bool { answer.status == 410 }
///
///     let log: CaptureLog
///     init(log: CaptureLog) { self.log = log }
///     static func make(_ context: MockProviderContext) -> [any MockProvider] { [PagerMock(log: context.log)] }
///     func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)] {
///         [("RINGCHECK_PAGER_URL", context.baseURL)]
///     }
///     func handle(_ request: HTTPRequest) async -> HTTPResponse {
///         var capture = Capture(request: request, mock: Self.id, arrivalMs: request.arrivalMs)
///         capture.deviceToken = String(request.path.dropFirst("/page/".count))  // how it names its device
///         _ = log.record(capture)
///         return .text(200, "paged\n")
///     }
/// }
/// ```
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
    /// Every listener its instances are served on, known before any is built: the names `ringcheck mocks
    /// --port NAME=PORT` takes (APNs: `apns`, `apnsSandbox`).
    static var listeners: [MockListener] { get }
    /// The listener it is served on, one of `listeners`; instances naming the same listener share it.
    var listener: MockListener { get }
    /// The real host names this instance answers for when impersonating.
    var servedHosts: [ImpersonatedHost] { get }
    /// Whether a request on a shared listener is for this instance (asked in registration order; the
    /// first that claims it answers).
    func claims(_ request: HTTPRequest) -> Bool
    /// The settings a backend needs, once the listener is bound at `context.baseURL`; may write key
    /// files to `context.directory` and complete `context.keys`.
    func settings(_ context: inout MockSettingsContext) throws -> [(name: String, value: String)]

    // MARK: What its pushes mean to the engine (see `PushChannel`, which asks these of its carrier)

    /// A fresh device token of the shape `channel`'s devices have: what a virtual device registers.
    static func newDeviceToken(for channel: PushChannel) -> String
    /// Whether `token` has the shape this provider accepts for a device on `channel`.
    static func isWellFormedDeviceToken(_ token: String, for channel: PushChannel) -> Bool
    /// The device token a capture of this provider is addressed to, as it names it (APNs: the path's
    /// `/3/device/<token>`, FCM: `message.token`); nil when it names no one device.
    static func deviceToken(of capture: Capture) -> String?
    /// Whether two spellings of a device token name the same device (APNs: hexadecimal, either case).
    static func sameDeviceToken(_ a: String, _ b: String) -> Bool
    /// The real host name a capture was meant for (`api.sandbox.push.apple.com`): the `host` scenarios match.
    static func realHost(of capture: Capture) -> String
    /// Whether this answer (a fault plan's `respond`) tells a backend that the device's token is gone or
    /// malformed, so it should forget the token (APNs 410 `Unregistered`, FCM 404 `UNREGISTERED`).
    static func meansTokenGone(_ answer: FaultResponse) -> Bool
    /// The request header fields whose values are credentials: what a scenario may match shows their
    /// scheme alone (`Bearer <redacted>`).
    static var credentialHeaders: [String] { get }
    /// The private key lines of the credentials `settings` gave the backend (a `.p8` key, a service
    /// account's `private_key`): no push may carry one, and no report may show one.
    static func keyLines(_ settings: MockSettings) -> [String]
    /// What reports call the provider (`APNs refused 2 pushes to phone: 410 Unregistered`).
    static var displayName: String { get }
    /// What `ringcheck mocks` prints for this instance once it listens: its endpoint lines (`APNs
    /// (sandbox)     https://127.0.0.1:40123`) and the lines of the credentials it gave the backend.
    func consoleLines(_ settings: MockSettings) -> (endpoints: [String], credentials: [String])
}

extension MockProvider {
    /// Which mock this is: its type's ID.
    public var id: MockProviderID { Self.id }
    /// No channels.
    public static var channels: [PushChannel] { [] }
    /// The type's first listener.
    public var listener: MockListener { Self.listeners[0] }
    /// Every host of the type.
    public var servedHosts: [ImpersonatedHost] { Self.impersonatedHosts }
    /// Claims every request.
    public func claims(_ request: HTTPRequest) -> Bool { true }

    /// 32 random bytes in hexadecimal.
    public static func newDeviceToken(for channel: PushChannel) -> String { MockIDs.hex(SecureRandom.bytes(32)) }
    /// Any token that is not empty.
    public static func isWellFormedDeviceToken(_ token: String, for channel: PushChannel) -> Bool { !token.isEmpty }
    /// The capture's `deviceToken`.
    public static func deviceToken(of capture: Capture) -> String? { capture.deviceToken }
    /// The same characters.
    public static func sameDeviceToken(_ a: String, _ b: String) -> Bool { a == b }
    /// The `:authority` (or `Host`) the request named, else the provider's ID.
    public static func realHost(of capture: Capture) -> String { capture.authority ?? id.rawValue }
    /// No answer.
    public static func meansTokenGone(_ answer: FaultResponse) -> Bool { false }
    /// `authorization`.
    public static var credentialHeaders: [String] { ["authorization"] }
    /// None.
    public static func keyLines(_ settings: MockSettings) -> [String] { [] }
    /// The provider's ID.
    public static var displayName: String { id.rawValue }
    /// The listener's settings, by name and value (the settings are the provider's own `settingNames`).
    public func consoleLines(_ settings: MockSettings) -> (endpoints: [String], credentials: [String]) {
        let mine = settings.extra.filter { Self.settingNames.contains($0.name) }
        return (mine.map { MockConsole.line($0.name, $0.value) }, [])
    }
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
