import Conformance

/// The requirement IDs of `suites/push-service/requirements.yaml` the profile's own checks charge (the levels come
/// from the catalogue; `PushServiceCatalogueTests` checks that every ID here is in it).
enum PushServiceRequirement {
    static let keyAuth: RequirementID = "PUSHSVC-AUTH-1"
    static let otherSchemes: RequirementID = "PUSHSVC-AUTH-2"
    static let refused: RequirementID = "PUSHSVC-AUTH-3"
    static let malformed: RequirementID = "PUSHSVC-REQ-1"
    static let malformedValues: RequirementID = "PUSHSVC-REQ-2"
    static let nobody: RequirementID = "PUSHSVC-REQ-3"
    static let accepted: RequirementID = "PUSHSVC-REQ-4"
    /// A malformed device registration is refused with 400 `errors`.
    static let malformedDevice: RequirementID = "PUSHSVC-REQ-5"
    static let reachEvery: RequirementID = "PUSHSVC-DEV-1"
    static let otherUser: RequirementID = "PUSHSVC-DEV-2"
    static let sandbox: RequirementID = "PUSHSVC-DEV-3"
    static let removed: RequirementID = "PUSHSVC-DEV-4"
    /// An iOS call goes as a VoIP push to the voipToken (push type voip, `.voip` topic): never an alert.
    static let callVoIP: RequirementID = "PUSHSVC-CALL-1"
    static let callPriority: RequirementID = "PUSHSVC-CALL-2"
    static let generatedId: RequirementID = "PUSHSVC-CALL-3"
    static let endedSameId: RequirementID = "PUSHSVC-CALL-4"
    static let endedNotVoIP: RequirementID = "PUSHSVC-CALL-5"
    static let noVoIPTokenFailed: RequirementID = "PUSHSVC-CALL-6"
    static let noDuplicate: RequirementID = "PUSHSVC-CALL-7"
    /// No `incoming_call` push after the call's `timeout` (its ring) ended.
    static let noLateCall: RequirementID = "PUSHSVC-CALL-8"
    static let androidDataOnly: RequirementID = "PUSHSVC-ANDROID-1"
    /// An `incoming_call` FCM message has priority high.
    static let androidPriority: RequirementID = "PUSHSVC-ANDROID-2"
    /// A `call_ended` FCM message has priority high (a SHOULD: the seed names no priority for it).
    static let androidEndedPriority: RequirementID = "PUSHSVC-ANDROID-3"
    static let strings: RequirementID = "PUSHSVC-PAYLOAD-1"
    static let keys: RequirementID = "PUSHSVC-PAYLOAD-2"
    static let deadVoIPDeleted: RequirementID = "PUSHSVC-VOIP-1"
    static let deadVoIPKeepsDevice: RequirementID = "PUSHSVC-VOIP-2"
    static let tokenAuth: RequirementID = "PUSHSVC-APNS-1"
    static let alert: RequirementID = "PUSHSVC-NOTIF-1"
    static let ttl: RequirementID = "PUSHSVC-NOTIF-2"
    static let collapse: RequirementID = "PUSHSVC-NOTIF-3"
    static let badge: RequirementID = "PUSHSVC-NOTIF-4"
    static let channel: RequirementID = "PUSHSVC-NOTIF-5"
    static let countFields: RequirementID = "PUSHSVC-COUNT-1"
    static let counts: RequirementID = "PUSHSVC-COUNT-2"
    static let settles: RequirementID = "PUSHSVC-COUNT-3"

    /// Every ID above.
    static let all = [
        keyAuth, otherSchemes, refused, malformed, malformedValues, nobody, accepted, malformedDevice, reachEvery,
        otherUser, sandbox,
        removed, callVoIP, callPriority, generatedId, endedSameId, endedNotVoIP, noVoIPTokenFailed, noDuplicate,
        noLateCall,
        androidDataOnly, androidPriority, androidEndedPriority, strings, keys, deadVoIPDeleted, deadVoIPKeepsDevice,
        tokenAuth, alert, ttl,
        collapse, badge, channel, countFields, counts, settles,
    ]
}

/// The seed's routes (`push-service-rest-api.txt`), by the names a target file's `serviceApp.routes` uses.
enum PushServiceRoutes {
    static let seed: [String: String] = [
        "devices": "/api/v1/apps/{appId}/devices",
        "device": "/api/v1/apps/{appId}/devices/{deviceId}",
        "notifications": "/notifications",
        "notification": "/notifications/{notificationId}?app_id={appId}",
    ]
    static let names = seed.keys.sorted()
}
