import Conformance

/// The requirement IDs of `suites/onesignal/requirements.yaml` the profile's own checks charge (the levels come
/// from the catalogue; `OneSignalCatalogueTests` checks that every ID here is in it).
enum OneSignalRequirement {
    /// Unconfigured: no request reaches OneSignal and the send reports not delivered.
    static let unconfigured: RequirementID = "ONESIGNAL-CONF-1"
    /// A push to a user targets `include_aliases.external_id = [userId]`.
    static let targeting: RequirementID = "ONESIGNAL-TARGET-1"
    /// A broadcast names its audience (a segment or filters).
    static let broadcastTargeting: RequirementID = "ONESIGNAL-TARGET-2"
    /// A 200 with 0 recipients is not delivered.
    static let zeroNotDelivered: RequirementID = "ONESIGNAL-DELIV-1"
    /// One recipient or more is delivered.
    static let reachedDelivered: RequirementID = "ONESIGNAL-DELIV-2"
    /// Standard pushes go through the standard app with its key.
    static let standardApp: RequirementID = "ONESIGNAL-STD-1"
    /// The data given reaches `data`; a standard push's title and body reach `headings` and `contents`.
    static let content: RequirementID = "ONESIGNAL-DATA-1"
    /// VoIP pushes go through the VoIP app with its key.
    static let voipApp: RequirementID = "ONESIGNAL-VOIP-1"
    static let voipPushType: RequirementID = "ONESIGNAL-VOIP-2"
    static let voipContentAvailable: RequirementID = "ONESIGNAL-VOIP-3"
    static let voipTTL: RequirementID = "ONESIGNAL-VOIP-4"
    static let voipDataOnly: RequirementID = "ONESIGNAL-VOIP-5"
    /// `PushOptions` map one to one.
    static let options: RequirementID = "ONESIGNAL-OPT-1"

    /// Every ID above: one rule each (`OneSignalRules`).
    static var all: [RequirementID] {
        OneSignalRules.requests.map(\.requirement) + OneSignalRules.operations.map(\.requirement)
    }
}
