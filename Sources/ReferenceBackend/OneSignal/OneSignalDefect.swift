/// A deliberate departure from one rule of the OneSignal kit (`onesignal-kit-voip.txt`).
///
/// The kit server is correct with no defects; each switch breaks exactly one rule, so the onesignal suite can
/// show that the check for that rule can fail.
public enum OneSignalDefect: String, ReferenceDefect {
    case sendWhenUnconfigured = "send-when-unconfigured"
    case deliveredOnZero = "delivered-on-zero"
    case deliveredNeedsTwo = "delivered-needs-two"
    case targetByPlayerId = "target-by-player-id"
    case voipThroughStandardApp = "voip-through-standard-app"
    case standardThroughVoipApp = "standard-through-voip-app"
    case headingsOnVoip = "headings-on-voip"
    case ttlDefault = "ttl-default"
    case voipNoContentAvailable = "voip-no-content-available"
    case voipPushTypeAlert = "voip-push-type-alert"
    case dropPriority = "drop-priority"
    case dropCollapseId = "drop-collapse-id"
    case dropData = "drop-data"
    case refuseTTLOption = "refuse-ttl-option"
    case broadcastWithoutSegment = "broadcast-without-segment"
    case dropFalsyOptions = "drop-falsy-options"
    case voipDefaultsOverOptions = "voip-defaults-over-options"

    /// One line for `--help`: what the kit does wrong with this switch on.
    public var summary: String {
        switch self {
        case .sendWhenUnconfigured: return "without ONESIGNAL_APP_ID/ONESIGNAL_API_KEY it still posts to OneSignal"
        case .deliveredOnZero: return "any 200 counts as delivered, even with recipients 0"
        case .deliveredNeedsTwo: return "delivered only when recipients > 1: a user with one device is never delivered"
        case .targetByPlayerId: return "pushes target include_player_ids [userId] instead of the external_id alias"
        case .voipThroughStandardApp: return "VoIP pushes go through the standard app (its app ID and key)"
        case .standardThroughVoipApp: return "standard pushes to a user go through the VoIP app"
        case .headingsOnVoip: return "VoIP pushes carry headings and contents (a visible notification)"
        case .ttlDefault: return "VoIP pushes leave ttl out (OneSignal keeps them for days) instead of 30"
        case .voipNoContentAvailable: return "VoIP pushes leave content_available out"
        case .voipPushTypeAlert: return "VoIP pushes carry apns_push_type_override alert instead of voip"
        case .dropPriority: return "the priority option is not passed on"
        case .dropCollapseId: return "the collapseId option is not passed on as collapse_id"
        case .dropData: return "the data given to a push is not passed on"
        case .refuseTTLOption:
            return "a send given the ttl option makes no request (its SDK refuses the value) and reports not delivered"
        case .broadcastWithoutSegment:
            return "broadcasts name no target and no segment (OneSignal refuses them with 400)"
        case .dropFalsyOptions:
            return
                "options given with a falsy value (ttl 0, contentAvailable false) are dropped, as `if (options.ttl)` does"
        case .voipDefaultsOverOptions:
            return
                "VoIP pushes always carry the call defaults (voip, content_available true, ttl 30), whatever the options say"
        }
    }
}
