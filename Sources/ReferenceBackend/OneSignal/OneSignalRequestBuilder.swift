import JSON

/// Builds the OneSignal create-notification body the seed's helpers send, and picks the app it goes through.
public struct OneSignalRequestBuilder: Sendable {
    /// The VoIP helper's call-appropriate defaults.
    public static let voipTTLSeconds = 30
    /// The segment a broadcast targets.
    public static let broadcastSegment = "Subscribed Users"

    public var configuration: OneSignalConfiguration

    public init(configuration: OneSignalConfiguration) { self.configuration = configuration }

    private var defects: Set<OneSignalDefect> { configuration.defects }

    /// The app a push goes through: the VoIP app for calls, the standard app otherwise; nil when that app is not
    /// configured (and the send is a no-op).
    public func app(for kind: OneSignalPush.Kind) -> OneSignalAppCredentials? {
        switch kind {
        case .voip:
            return defects.contains(.voipThroughStandardApp) ? configuration.standardApp : configuration.voipApp
        case .user:
            return defects.contains(.standardThroughVoipApp)
                ? (configuration.voipApp ?? configuration.standardApp) : configuration.standardApp
        case .broadcast:
            return configuration.standardApp
        }
    }

    /// The request body for `push` through `app`.
    public func body(_ push: OneSignalPush, appId: String) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("app_id", .string(appId))]
        if let userId = push.userId, push.kind != .broadcast {
            if defects.contains(.targetByPlayerId) {
                members.append(("include_player_ids", [.string(userId)]))
            } else {
                members.append(("include_aliases", ["external_id": [.string(userId)]]))
                members.append(("target_channel", "push"))
            }
        } else if !defects.contains(.broadcastWithoutSegment) {
            members.append(("included_segments", [.string(Self.broadcastSegment)]))
        }
        let visible = push.kind != .voip || defects.contains(.headingsOnVoip)
        if visible {
            members.append(("headings", ["en": .string(push.title ?? "")]))
            members.append(("contents", ["en": .string(push.body ?? "")]))
        }
        if let data = push.data, !defects.contains(.dropData) { members.append(("data", data)) }
        var options = push.options
        if defects.contains(.dropFalsyOptions) {
            if options.ttl == 0 { options.ttl = nil }
            if options.contentAvailable == false { options.contentAvailable = nil }
            if options.priority == 0 { options.priority = nil }
        }
        if push.kind == .voip && defects.contains(.voipDefaultsOverOptions) {
            options.apnsPushTypeOverride = nil
            options.contentAvailable = nil
            options.ttl = nil
        }
        if push.kind == .voip {
            if options.apnsPushTypeOverride == nil {
                options.apnsPushTypeOverride = defects.contains(.voipPushTypeAlert) ? "alert" : "voip"
            }
            if options.contentAvailable == nil && !defects.contains(.voipNoContentAvailable) {
                options.contentAvailable = true
            }
            if options.ttl == nil && !defects.contains(.ttlDefault) { options.ttl = Self.voipTTLSeconds }
        }
        if let priority = options.priority, !defects.contains(.dropPriority) {
            members.append(("priority", .int(priority)))
        }
        if let ttl = options.ttl { members.append(("ttl", .int(ttl))) }
        if let contentAvailable = options.contentAvailable {
            members.append(("content_available", .bool(contentAvailable)))
        }
        if let type = options.apnsPushTypeOverride { members.append(("apns_push_type_override", .string(type))) }
        if let collapseId = options.collapseId, !defects.contains(.dropCollapseId) {
            members.append(("collapse_id", .string(collapseId)))
        }
        return .object(members)
    }
}
