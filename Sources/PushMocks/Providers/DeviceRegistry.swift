import Synchronization

/// Device tokens the mocks know something about. Unknown tokens are accepted as valid everywhere.
///
/// An APNs token registered for one environment is rejected by the other (`BadDeviceToken`), as
/// real APNs does with sandbox tokens sent to production. Tokens marked unregistered answer
/// 410 `Unregistered` (APNs) or 404 `UNREGISTERED` (FCM).
public final class DeviceRegistry: Sendable {
    /// What the provider knows about a token.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Valid (in its environment, when one is set).
        case active
        /// The app was uninstalled: APNs 410 Unregistered, FCM 404 UNREGISTERED.
        case unregistered
        /// APNs 410 ExpiredToken (FCM: 404 UNREGISTERED).
        case expired
        /// FCM 403 SENDER_ID_MISMATCH: the token belongs to another Firebase project (APNs: 400 DeviceTokenNotForTopic).
        case foreignSender
    }

    /// What an APNs token was issued for: an app gets a PushKit token for VoIP pushes and another for alerts, and
    /// APNs refuses a push of the other family to it (400 DeviceTokenNotForTopic).
    public enum TokenKind: String, Sendable, Codable, CaseIterable {
        /// A PushKit token: only `voip` pushes (topic `<bundle>.voip`).
        case voip
        /// A UserNotifications token: alert, background and the other non-VoIP pushes, never `voip`.
        case alert
    }

    /// One known token.
    public struct Device: Sendable, Equatable {
        public var token: String
        /// The APNs environment the token belongs to; nil for FCM tokens or when unknown.
        public var environment: APNsEnvironment?
        public var status: Status
        /// When the status was set (ms); the `timestamp` of a 410.
        public var sinceMs: Int64
        /// What the APNs token was issued for; nil: unknown (every push type accepted), or an FCM token.
        public var tokenKind: TokenKind?

        /// Creates a value from its parts.
        public init(
            token: String, environment: APNsEnvironment? = nil, status: Status = .active, sinceMs: Int64 = 0,
            tokenKind: TokenKind? = nil
        ) {
            self.token = token
            self.environment = environment
            self.status = status
            self.sinceMs = sinceMs
            self.tokenKind = tokenKind
        }
    }

    private let devices = Mutex<[String: Device]>([:])
    /// How many tokens `devices` holds, set under its lock and read without it: every push asks whether
    /// the registry knows any token, and almost always none is registered (a lock per push for that).
    private let count = Atomic<Int>(0)

    /// An empty registry: every token is accepted.
    public init() {}

    /// Hexadecimal APNs tokens compare case-insensitively; FCM tokens exactly.
    static func key(_ token: String) -> String {
        token.utf8.allSatisfy(MockIDs.isHexDigit) ? token.lowercased() : token
    }

    /// Records (or replaces) what is known about a token.
    public func register(_ device: Device) { changing { $0[Self.key(device.token)] = device } }

    /// Records a token as belonging to an APNs environment (active), issued for `tokenKind` when known.
    public func register(
        token: String, environment: APNsEnvironment?, atMs: Int64 = 0, tokenKind: TokenKind? = nil
    ) {
        register(Device(token: token, environment: environment, status: .active, sinceMs: atMs, tokenKind: tokenKind))
    }

    /// Marks a token unregistered since `atMs`, keeping its environment.
    public func unregister(token: String, atMs: Int64) {
        changing { devices in
            let key = Self.key(token)
            var device = devices[key] ?? Device(token: token)
            device.status = .unregistered
            device.sinceMs = atMs
            devices[key] = device
        }
    }

    /// Forgets a token; false when it was unknown.
    @discardableResult
    public func forget(token: String) -> Bool { changing { $0.removeValue(forKey: Self.key(token)) != nil } }

    /// What is known about `token`, or nil.
    public func device(_ token: String) -> Device? {
        // Most runs register no token: skip the lock and lower-casing the token for every request then.
        guard !isEmpty else { return nil }
        return devices.withLock { $0.isEmpty ? nil : $0[Self.key(token)] }
    }

    /// True when no token is known (every token is accepted).
    public var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Every known token, sorted by token.
    public var all: [Device] { devices.withLock { $0.values.sorted { $0.token < $1.token } } }

    /// Forgets every token.
    public func clear() { changing { $0.removeAll() } }

    /// Runs `change` on the tokens under their lock and brings `count` up to date before it is released.
    private func changing<T>(_ change: (inout [String: Device]) -> T) -> T {
        devices.withLock { devices in
            let result = change(&devices)
            count.store(devices.count, ordering: .releasing)
            return result
        }
    }
}
