/// How the reference push service behaves: its one app (App ID and REST key), the APNs bundle ID its
/// pushes are for, the call defaults, and any defect switches.
public struct PushServiceConfiguration: Sendable {
    /// The app's ID (a UUID): the `app_id` of every request and the `{appId}` of device routes.
    public var appId: String
    /// The app's REST API key (`psk_…`). Never logged.
    public var apiKey: String
    /// The iOS app's bundle ID: the topic of alert and background pushes; VoIP pushes use `<bundle>.voip`.
    public var bundleID: String
    /// How long a call rings when `call.timeout` is not given: the VoIP push's `apns-expiration`
    /// (now + this) and the FCM ttl.
    public var defaultCallTimeoutSeconds: Int64
    /// The defects switched on; empty for a conforming service.
    public var defects: Set<PushServiceDefect>
    /// Which REST API it serves: the seed's, or the same service behind other routes and member names.
    public var apiShape: PushServiceAPIShape

    public init(
        appId: String, apiKey: String, bundleID: String, defaultCallTimeoutSeconds: Int64 = 30,
        defects: Set<PushServiceDefect> = [], apiShape: PushServiceAPIShape = .reference
    ) {
        self.appId = appId
        self.apiKey = apiKey
        self.bundleID = bundleID
        self.defaultCallTimeoutSeconds = defaultCallTimeoutSeconds
        self.defects = defects
        self.apiShape = apiShape
    }

    /// A fresh app: a random App ID and `psk_` key.
    public static func generated(bundleID: String, defects: Set<PushServiceDefect> = []) -> PushServiceConfiguration {
        PushServiceConfiguration(
            appId: RandomIdentifier.uuid(), apiKey: "psk_" + RandomIdentifier.hex(bytes: 16), bundleID: bundleID,
            defects: defects)
    }
}
