/// The requirement IDs of `suites/onesignal/requirements.yaml` the profile's own checks charge (the levels come
/// from the catalogue; `OneSignalCatalogueTests` checks that every ID here is in it).
enum OneSignalRequirement {
    /// Unconfigured: no request reaches OneSignal and the send reports not delivered.
    static let unconfigured = "ONESIGNAL-CONF-1"
    /// A push to a user targets `include_aliases.external_id = [userId]`.
    static let targeting = "ONESIGNAL-TARGET-1"
    /// A 200 with 0 recipients is not delivered.
    static let zeroNotDelivered = "ONESIGNAL-DELIV-1"
    /// One recipient or more is delivered.
    static let reachedDelivered = "ONESIGNAL-DELIV-2"
    /// Standard pushes go through the standard app with its key.
    static let standardApp = "ONESIGNAL-STD-1"
    /// The data given reaches `data`; a standard push's title and body reach `headings` and `contents`.
    static let content = "ONESIGNAL-DATA-1"
    /// VoIP pushes go through the VoIP app with its key.
    static let voipApp = "ONESIGNAL-VOIP-1"
    static let voipPushType = "ONESIGNAL-VOIP-2"
    static let voipContentAvailable = "ONESIGNAL-VOIP-3"
    static let voipTTL = "ONESIGNAL-VOIP-4"
    static let voipDataOnly = "ONESIGNAL-VOIP-5"
    /// `PushOptions` map one to one.
    static let options = "ONESIGNAL-OPT-1"

    /// Every ID above.
    static let all = [
        unconfigured, targeting, zeroNotDelivered, reachedDelivered, standardApp, content, voipApp,
        voipPushType, voipContentAvailable, voipTTL, voipDataOnly, options,
    ]
}
