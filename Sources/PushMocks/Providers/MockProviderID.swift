/// Which mock a request reached: the `mock` of captures, capture filters and fault plans (`apns`,
/// `fcm`, `oauth`). Each provider declares its own value (`MockProvider.id`), so a new provider adds
/// one without editing a shared enum; `init(rawValue:)` accepts only registered ones.
public struct MockProviderID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// The ID of a registered provider; nil for any other name.
    public init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// An ID for a provider to declare (`static let apns = MockProviderID("apns")`).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// Every registered provider's ID, in registration order.
    public static let allCases: [MockProviderID] = MockProviders.registered.map { $0.id }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let id = MockProviderID(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "no mock provider '\(name)'"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The name `MockProviderID` had while the mocks were an enum.
public typealias MockKind = MockProviderID
