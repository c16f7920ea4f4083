import JSON

/// A device registered with the push service (`POST /api/v1/apps/{appId}/devices`): its platform,
/// the user (external ID) it belongs to and its tokens.
public struct ServiceDevice: Sendable, Equatable {
    /// The platforms the service delivers to.
    public enum Platform: String, Sendable, Equatable {
        case ios, android
    }

    /// The service's ID for the device (a UUID).
    public var id: String
    public var externalId: String
    public var platform: Platform
    /// The APNs alert token (iOS) or the FCM registration token (Android).
    public var token: String
    /// The PushKit VoIP token (iOS); nil when the app registered none or APNs called it dead.
    public var voipToken: String?
    /// An iOS debug build: pushed through the APNs sandbox host.
    public var sandbox: Bool
}
