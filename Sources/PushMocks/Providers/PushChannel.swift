/// How a device receives pushes: the `kind` of a scenario's virtual device (`apnsVoip`, `fcm`) and the
/// mock provider that carries them. Providers declare their channels (`MockProvider.channels`), so a
/// new one adds its own without editing a shared enum; `init(rawValue:)` accepts only registered ones.
///
/// A channel answers for its devices by asking its carrier (the `MockProvider` type): what a token looks
/// like, which captures reach a device, what an answer means. The engine asks the channel and never
/// switches on one:
///
/// ```swift
/// let token = device.kind.newDeviceToken()            // 64 hex digits for apnsVoip
/// let mine = device.kind.capture(c, reachesAnyOf: [token])
/// ```
public struct PushChannel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The name scenarios and target files use: `apnsVoip`, `fcm`.
    public let rawValue: String
    /// The mock the channel's pushes reach.
    public let provider: MockProviderID
    /// The provider type that carries the channel's pushes: what its tokens, captures and answers mean.
    public let carrier: any MockProvider.Type
    /// Whether a device on the channel is registered for one of the provider's environments (APNs
    /// sandbox or production; production when it names none).
    public let hasEnvironments: Bool

    /// A registered channel; nil for any other name.
    public init?(rawValue: String) {
        guard let channel = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = channel
    }

    /// A channel for a provider to declare (`PushChannel("apnsVoip", carrier: APNsMock.self, hasEnvironments: true)`).
    public init(_ rawValue: String, carrier: any MockProvider.Type, hasEnvironments: Bool = false) {
        self.rawValue = rawValue
        self.provider = carrier.id
        self.carrier = carrier
        self.hasEnvironments = hasEnvironments
    }

    public var description: String { rawValue }

    public static func == (a: PushChannel, b: PushChannel) -> Bool {
        a.rawValue == b.rawValue && a.provider == b.provider
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
        hasher.combine(provider)
    }

    /// Every registered provider's channels, in registration order.
    public static let allCases: [PushChannel] = MockProviders.registered.flatMap { $0.channels }
}

extension PushChannel {
    /// A fresh device token of the channel's shape.
    public func newDeviceToken() -> String { carrier.newDeviceToken(for: self) }

    /// Whether `token` has the shape the carrier accepts for a device on the channel.
    public func isWellFormed(deviceToken token: String) -> Bool { carrier.isWellFormedDeviceToken(token, for: self) }

    /// Whether `capture` is a push on this channel to a device holding one of `tokens`.
    public func capture(_ capture: Capture, reachesAnyOf tokens: [String]) -> Bool {
        guard capture.mock == provider, let token = carrier.deviceToken(of: capture) else { return false }
        return tokens.contains { carrier.sameDeviceToken($0, token) }
    }
}
