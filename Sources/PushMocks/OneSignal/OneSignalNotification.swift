import JSON

/// What the mock understood of a create-notification body: the fields the kit's rules are about,
/// normalised. Parsed by `OneSignalNotification.parse(_:)`, which refuses what the real API refuses.
public struct OneSignalNotification: Sendable, Equatable {
    /// How the notification chooses its recipients: exactly one mode per request.
    public enum Targeting: Sendable, Equatable {
        /// `include_aliases`: alias label → IDs (`external_id` → user IDs).
        case aliases([String: [String]])
        /// `included_segments` (with `excluded_segments`).
        case segments([String])
        /// `filters`.
        case filters
        /// A list of subscription-level IDs: the field (`include_subscription_ids`, the legacy
        /// `include_player_ids`, `include_external_user_ids`, …) and its values.
        case ids(field: String, values: [String])
    }

    public var appID: String
    public var targeting: Targeting
    /// `target_channel` (`push`, `email`, `sms`); nil when absent (push).
    public var targetChannel: String?
    /// `apns_push_type_override` (`alert`, `background`, `voip`).
    public var apnsPushTypeOverride: String?
    public var priority: Int?
    /// Seconds.
    public var ttl: Int?
    public var contentAvailable: Bool?
    public var collapseID: String?
    /// Whether `headings` / `contents` were given (a data-only push has neither).
    public var hasHeadings: Bool
    public var hasContents: Bool
    /// The notification-level `external_id` (or `idempotency_key`): an idempotency key, not a recipient.
    public var idempotencyKey: String?

    /// The user IDs of `include_aliases.external_id`; empty for other targeting.
    public var externalIDs: [String] {
        if case .aliases(let aliases) = targeting { return aliases["external_id"] ?? [] }
        return []
    }

    // MARK: Parsing

    /// Every targeting parameter, each naming its mode (segments and their exclusions are one mode).
    static let targetingFields: [(field: String, mode: String)] = [
        ("include_aliases", "include_aliases"), ("included_segments", "segments"), ("excluded_segments", "segments"),
        ("filters", "filters"), ("include_subscription_ids", "include_subscription_ids"),
        ("include_player_ids", "include_player_ids"), ("include_external_user_ids", "include_external_user_ids"),
        ("include_email_tokens", "include_email_tokens"), ("include_phone_numbers", "include_phone_numbers"),
        ("include_ios_tokens", "include_ios_tokens"), ("include_android_reg_ids", "include_android_reg_ids"),
        ("include_wp_wns_uris", "include_wp_wns_uris"), ("include_amazon_reg_ids", "include_amazon_reg_ids"),
        ("include_chrome_reg_ids", "include_chrome_reg_ids"),
        ("include_chrome_web_reg_ids", "include_chrome_web_reg_ids"),
    ]

    /// The values `apns_push_type_override` may take.
    public static let apnsPushTypes: Set<String> = ["alert", "background", "voip"]
    /// The values `target_channel` may take.
    public static let targetChannels: Set<String> = ["push", "email", "sms"]
    /// OneSignal's longest `ttl`: 28 days.
    public static let maxTTL = 2_419_200
    /// The most IDs one targeting parameter may hold per request (OneSignal's documented limit).
    public static let maxTargets = 2000

    /// Fields whose JSON type the API checks, and that type.
    static let typedFields: [(field: String, type: FieldType)] = [
        ("name", .string), ("external_id", .string), ("idempotency_key", .string), ("collapse_id", .string),
        ("android_channel_id", .string), ("existing_android_channel_id", .string), ("ios_sound", .string),
        ("ios_category", .string), ("thread_id", .string), ("template_id", .string), ("url", .string),
        ("send_after", .string), ("delayed_option", .string), ("delivery_time_of_day", .string),
        ("ios_badgeType", .string), ("ios_badgeCount", .integer), ("ttl", .integer), ("priority", .integer),
        ("content_available", .boolean), ("mutable_content", .boolean), ("ios_interruption_level", .string),
        ("data", .object), ("contents", .languageMap), ("headings", .languageMap), ("subtitle", .languageMap),
        ("target_channel", .string), ("apns_push_type_override", .string), ("is_ios", .boolean),
        ("is_android", .boolean),
    ]

    enum FieldType {
        case string, integer, boolean, object, languageMap

        func check(_ value: JSONValue, field: String) -> String? {
            switch self {
            case .string: return value.stringValue == nil ? "\(field) must be a string" : nil
            case .integer:
                return value.isIntegerLiteral && value.int64Value != nil ? nil : "\(field) must be an integer"
            case .boolean: return value.boolValue == nil ? "\(field) must be a boolean" : nil
            case .object: return value.objectValue == nil ? "\(field) must be a JSON object" : nil
            case .languageMap:
                guard let members = value.objectValue else {
                    return "\(field) must be an object of language codes to text, e.g. {\"en\": \"…\"}"
                }
                if members.contains(where: { $0.value.stringValue == nil }) {
                    return "\(field) must map each language code to a string"
                }
                return nil
            }
        }
    }

    /// The `app_id` of a body, when it is a string; what the mock needs before judging the key.
    static func appID(in body: JSONValue) -> String? { body["app_id"]?.stringValue }

    /// Parses and judges a create-notification body (whose `app_id` and key were already accepted):
    /// 400 with every problem at once, as the real API lists them.
    public static func parse(_ body: JSONValue) throws(OneSignalError) -> OneSignalNotification {
        guard let members = body.objectValue, let appID = appID(in: body), !appID.isEmpty else {
            throw OneSignalError.appIDNotFound
        }
        var errors: [String] = []
        func present(_ field: String) -> JSONValue? {
            guard let value = members.last(where: { $0.key == field })?.value, !value.isNull else { return nil }
            return value
        }
        for (field, type) in typedFields {
            if let value = present(field), let problem = type.check(value, field: field) { errors.append(problem) }
        }

        // Targeting: exactly one mode.
        let modes = targetingFields.filter { present($0.field) != nil }
        let modeNames = modes.map(\.mode).reduce(into: [String]()) {
            if !$1.isEmpty, !$0.contains($1) { $0.append($1) }
        }
        var targeting: Targeting?
        if modeNames.isEmpty {
            throw OneSignalError.noTargeting
        } else if modeNames.count > 1 {
            errors.append(
                "Incompatible targeting parameters: \(modes.map(\.field).joined(separator: ", ")) cannot be combined; "
                    + "use one targeting mode per notification.")
        } else {
            do throws(OneSignalError) {
                targeting = try parseTargeting(mode: modeNames[0], present)
            } catch {
                errors += error.messages
            }
        }

        let channel = present("target_channel")?.stringValue
        if let channel, !targetChannels.contains(channel) {
            errors.append("target_channel must be one of push, email, sms (got '\(channel)')")
        }
        let pushType = present("apns_push_type_override")?.stringValue
        if let pushType, !apnsPushTypes.contains(pushType) {
            errors.append("apns_push_type_override must be one of alert, background, voip (got '\(pushType)')")
        }
        let priority = present("priority")?.isIntegerLiteral == true ? present("priority")?.intValue : nil
        if let priority, !(1...10).contains(priority) { errors.append("priority must be between 1 and 10") }
        let ttl = present("ttl")?.isIntegerLiteral == true ? present("ttl")?.intValue : nil
        if let ttl, !(0...maxTTL).contains(ttl) { errors.append("ttl must be between 0 and \(maxTTL) seconds") }
        let collapseID = present("collapse_id")?.stringValue
        if let collapseID, collapseID.utf8.count > 64 { errors.append("collapse_id must be at most 64 bytes") }
        if let badge = present("ios_badgeType")?.stringValue, !["None", "SetTo", "Increase"].contains(badge) {
            errors.append("ios_badgeType must be None, SetTo or Increase")
        }
        let contentAvailable = present("content_available")?.boolValue
        let contents = present("contents")?.objectValue
        if let contents, !contents.isEmpty, !contents.contains(where: { $0.key == "en" }) {
            errors.append("Notification contents must include English (\"en\") content")
        }
        // A push with nothing to show must be a background (content-available) push or use a template.
        if (channel ?? "push") == "push", contents == nil, contentAvailable != true, present("template_id") == nil {
            errors.append("Message Notifications must have English language content")
        }

        guard errors.isEmpty, let targeting else { throw OneSignalError(400, errors) }
        return OneSignalNotification(
            appID: appID, targeting: targeting, targetChannel: channel, apnsPushTypeOverride: pushType,
            priority: priority, ttl: ttl, contentAvailable: contentAvailable, collapseID: collapseID,
            hasHeadings: present("headings") != nil, hasContents: contents != nil,
            idempotencyKey: present("external_id")?.stringValue ?? present("idempotency_key")?.stringValue)
    }

    /// The targeting of `mode`, its values judged.
    static func parseTargeting(mode: String, _ present: (String) -> JSONValue?) throws(OneSignalError) -> Targeting {
        func strings(_ field: String) throws(OneSignalError) -> [String] {
            guard let items = present(field)?.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw OneSignalError(400, ["\(field) must be an array of strings"])
            }
            guard items.count <= maxTargets else {
                throw OneSignalError(400, ["\(field) may hold at most \(maxTargets) entries"])
            }
            return items.compactMap(\.stringValue)
        }
        switch mode {
        case "include_aliases":
            guard let labels = present("include_aliases")?.objectValue, !labels.isEmpty else {
                throw OneSignalError(
                    400, ["include_aliases must be an object of alias labels to IDs, e.g. {\"external_id\": [\"…\"]}"])
            }
            var aliases: [String: [String]] = [:]
            for (label, value) in labels {
                guard let items = value.arrayValue, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) else {
                    throw OneSignalError(400, ["include_aliases.\(label) must be a non-empty array of strings"])
                }
                guard items.count <= maxTargets else {
                    throw OneSignalError(400, ["include_aliases.\(label) may hold at most \(maxTargets) entries"])
                }
                aliases[label] = items.compactMap(\.stringValue)
            }
            return .aliases(aliases)
        case "segments":
            let included = present("included_segments") == nil ? [] : try strings("included_segments")
            if present("excluded_segments") != nil { _ = try strings("excluded_segments") }
            guard !included.isEmpty else {
                throw OneSignalError(400, ["excluded_segments needs included_segments"])
            }
            return .segments(included)
        case "filters":
            guard present("filters")?.arrayValue != nil else {
                throw OneSignalError(400, ["filters must be an array of filter objects"])
            }
            return .filters
        default:
            return .ids(field: mode, values: try strings(mode))
        }
    }
}
