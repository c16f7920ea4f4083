/// How a device receives pushes: the `kind` of a scenario's virtual device (`apnsVoip`, `fcm`) and the
/// mock provider that carries them. Providers declare their channels (`MockProvider.channels`), so a
/// new one adds its own without editing a shared enum; `init(rawValue:)` accepts only registered ones.
public struct PushChannel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The name scenarios and target files use: `apnsVoip`, `fcm`.
    public let rawValue: String
    /// The mock the channel's pushes reach.
    public let provider: MockProviderID

    /// A registered channel; nil for any other name.
    public init?(rawValue: String) {
        guard let channel = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = channel
    }

    /// A channel for a provider to declare.
    public init(_ rawValue: String, provider: MockProviderID) {
        self.rawValue = rawValue
        self.provider = provider
    }

    public var description: String { rawValue }

    /// Every registered provider's channels, in registration order.
    public static let allCases: [PushChannel] = MockProviders.registered.flatMap { $0.channels }
}
