import PushMocks

/// A virtual device outside a scenario (the fake caller's callee, a trigger's or a load unit's device,
/// `validate`'s probe): a fresh installation with its own push token, registered before the exchange so
/// the backend pushes to it.
public struct VirtualCallee: Sendable, Equatable {
    /// Its name on the timeline (`phone`, `tablet`).
    public var name: String
    public var kind: VirtualDevice.Kind
    /// The APNs environment of a VoIP token.
    public var environment: VirtualDevice.Environment?
    public var installationId: String
    /// The push token (a secret: shown redacted).
    public var token: String

    /// Creates a value from its parts.
    public init(
        name: String, kind: VirtualDevice.Kind, environment: VirtualDevice.Environment? = nil, installationId: String,
        token: String
    ) {
        self.name = name
        self.kind = kind
        self.environment = kind.hasEnvironments ? (environment ?? .production) : nil
        self.installationId = installationId
        self.token = token
    }

    /// An iOS phone (APNs VoIP, in `apnsEnvironment`: sandbox unless the backend supports only
    /// production) and an Android tablet (FCM) with fresh tokens, their installation IDs starting with `prefix`.
    public static func pair(prefix: String, apnsEnvironment: VirtualDevice.Environment = .sandbox) -> [VirtualCallee] {
        [
            VirtualCallee(
                name: "phone", kind: .apnsVoip, environment: apnsEnvironment, installationId: prefix + "-phone",
                token: RandomText.hex(bytes: 32)),
            VirtualCallee(
                name: "tablet", kind: .fcm, installationId: prefix + "-tablet", token: RandomText.fcmToken()),
        ]
    }

    /// A fresh random suffix for installation IDs, so runs never share one.
    public static func freshPrefix(_ base: String) -> String { base + "-" + RandomText.alphanumeric(6).lowercased() }
}

extension VirtualCallee {
    /// Whether `c` was sent to this device (as its channel's provider reads a capture).
    package func receives(_ c: Capture) -> Bool { kind.capture(c, reachesAnyOf: [token]) }
}
