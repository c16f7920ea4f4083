import JSON

/// One send the kit is asked for: which helper (`sendPushToUser`, `sendPushBroadcast`, `sendVoipPushToUser`) and
/// its arguments.
public struct OneSignalPush: Sendable, Equatable {
    /// The kit's three helpers.
    public enum Kind: String, Sendable, CaseIterable {
        case user, broadcast, voip
    }

    public var kind: Kind
    /// The account's immutable ID, the OneSignal External ID (nil for a broadcast).
    public var userId: String?
    public var title: String?
    public var body: String?
    /// The `data` object passed through; nil sends none.
    public var data: JSONValue?
    public var options: OneSignalPushOptions

    public init(
        kind: Kind, userId: String? = nil, title: String? = nil, body: String? = nil, data: JSONValue? = nil,
        options: OneSignalPushOptions = OneSignalPushOptions()
    ) {
        self.kind = kind
        self.userId = userId
        self.title = title
        self.body = body
        self.data = data
        self.options = options
    }
}

/// The seed's `PushOptions`; each maps to the OneSignal field of the same meaning.
public struct OneSignalPushOptions: Sendable, Equatable {
    /// `priority` (1–10; 10 = high).
    public var priority: Int?
    /// `ttl`, in seconds.
    public var ttl: Int?
    /// `content_available`.
    public var contentAvailable: Bool?
    /// `apns_push_type_override`: `alert`, `background` or `voip`.
    public var apnsPushTypeOverride: String?
    /// `collapse_id`.
    public var collapseId: String?

    public init(
        priority: Int? = nil, ttl: Int? = nil, contentAvailable: Bool? = nil, apnsPushTypeOverride: String? = nil,
        collapseId: String? = nil
    ) {
        self.priority = priority
        self.ttl = ttl
        self.contentAvailable = contentAvailable
        self.apnsPushTypeOverride = apnsPushTypeOverride
        self.collapseId = collapseId
    }

    /// The push types OneSignal takes in `apns_push_type_override`.
    public static let pushTypes = ["alert", "background", "voip"]
}
