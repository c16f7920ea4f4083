/// A deliberate departure from one rule of the push service seed (`push-service-rest-api.txt`) or of
/// the contract's choices where the seed is silent.
///
/// The reference push service is correct with no defects; each switch breaks exactly one rule, so the
/// push-service suite can show that the check for that rule can fail.
public enum PushServiceDefect: String, ReferenceDefect {
    case alertForCalls = "alert-for-calls"
    case numericPayloadValues = "numeric-payload-values"
    case endedNewID = "ended-new-id"
    case noVoIPTokenCountedOK = "no-voip-token-counted-ok"
    case dropDeviceOnDeadVoIP = "drop-device-on-dead-voip"
    case keepDeadVoIPToken = "keep-dead-voip-token"
    case acceptAnyKey = "accept-any-key"
    case keySchemeOnly = "key-scheme-only"
    case countsIgnoreFailures = "counts-ignore-failures"
    case notificationBlockOnAndroid = "notification-block-on-android"
    case normalPriorityCalls = "normal-priority-calls"
    case normalPriorityEnded = "normal-priority-ended"
    case firstExternalIdOnly = "first-external-id-only"
    case voipForEnded = "voip-for-ended"
    case noGeneratedID = "no-generated-id"
    case ignoreTTL = "ignore-ttl"
    case ignoreCollapseID = "ignore-collapse-id"
    case ignoreBadge = "ignore-badge"
    case ignoreChannel = "ignore-channel"
    case sandboxIgnored = "sandbox-ignored"
    case acceptBadRegistration = "accept-bad-registration"
    case ignoreCallTimeout = "ignore-call-timeout"
    case voipToAlertToken = "voip-to-alert-token"

    /// One line for `--help`: what the service does wrong with this switch on.
    public var summary: String {
        switch self {
        case .alertForCalls:
            return "calls reach iOS as an alert push to the APNs token, not a VoIP push to the voipToken"
        case .numericPayloadValues: return "call payloads carry is_video as a boolean and timeout as a number"
        case .endedNewID: return "action ended pushes carry a newly generated call_id, not the request's id"
        case .noVoIPTokenCountedOK: return "an iOS device without a voipToken is counted successful for a call"
        case .dropDeviceOnDeadVoIP:
            return "a dead VoIP token deletes the whole device, so it loses normal notifications"
        case .keepDeadVoIPToken: return "a dead VoIP token is kept and pushed to again on the next call"
        case .acceptAnyKey: return "POST /notifications and GET /notifications/{id} accept any REST key, or none"
        case .keySchemeOnly: return "only Authorization: Key is accepted; Basic and Bearer get 403"
        case .countsIgnoreFailures: return "failed and errored deliveries are reported as successful"
        case .notificationBlockOnAndroid: return "Android call messages carry a notification block (not data-only)"
        case .normalPriorityCalls: return "Android incoming-call messages carry android.priority normal instead of high"
        case .normalPriorityEnded: return "Android ended-call messages carry android.priority normal instead of high"
        case .firstExternalIdOnly:
            return "a notification reaches the devices of the first external ID in include_aliases only"
        case .voipForEnded: return "action ended reaches iOS as a VoIP push to the voipToken (it would ring again)"
        case .noGeneratedID: return "a call with an empty id is pushed with call_id \"\" instead of a generated UUID"
        case .ignoreTTL: return "ttl is not mapped: no apns-expiration header, no android.ttl"
        case .ignoreCollapseID: return "collapse_id is not mapped to apns-collapse-id and android.collapse_key"
        case .ignoreBadge: return "ios_badgeCount is not mapped to aps.badge"
        case .ignoreChannel: return "android_channel_id is not mapped to android.notification.channel_id"
        case .sandboxIgnored: return "devices registered with sandbox: true are pushed through the production APNs host"
        case .acceptBadRegistration:
            return
                "device registrations with missing or wrong members, or an unknown platform, are stored (200), not 400"
        case .ignoreCallTimeout:
            return
                "incoming-call pushes are retried and sent again after the call's timeout: a late one rings a gone call"
        case .voipToAlertToken:
            return "a call's VoIP push goes to the iOS device's alert token instead of its voipToken"
        }
    }
}
