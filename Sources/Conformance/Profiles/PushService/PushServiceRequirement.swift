/// The requirement IDs of `suites/push-service/requirements.yaml` the profile's own checks charge (the levels come
/// from the catalogue; `PushServiceCatalogueTests` checks that every ID here is in it).
enum PushServiceRequirement {
    static let keyAuth = "PUSHSVC-AUTH-1"
    static let otherSchemes = "PUSHSVC-AUTH-2"
    static let refused = "PUSHSVC-AUTH-3"
    static let malformed = "PUSHSVC-REQ-1"
    static let malformedValues = "PUSHSVC-REQ-2"
    static let nobody = "PUSHSVC-REQ-3"
    static let accepted = "PUSHSVC-REQ-4"
    /// A malformed device registration is refused with 400 `errors`.
    static let malformedDevice = "PUSHSVC-REQ-5"
    static let reachEvery = "PUSHSVC-DEV-1"
    static let otherUser = "PUSHSVC-DEV-2"
    static let sandbox = "PUSHSVC-DEV-3"
    static let removed = "PUSHSVC-DEV-4"
    /// An iOS call goes as a VoIP push to the voipToken (push type voip, `.voip` topic): never an alert.
    static let callVoIP = "PUSHSVC-CALL-1"
    static let callPriority = "PUSHSVC-CALL-2"
    static let generatedId = "PUSHSVC-CALL-3"
    static let endedSameId = "PUSHSVC-CALL-4"
    static let endedNotVoIP = "PUSHSVC-CALL-5"
    static let noVoIPTokenFailed = "PUSHSVC-CALL-6"
    static let noDuplicate = "PUSHSVC-CALL-7"
    /// No `incoming_call` push after the call's `timeout` (its ring) ended.
    static let noLateCall = "PUSHSVC-CALL-8"
    static let androidDataOnly = "PUSHSVC-ANDROID-1"
    static let androidPriority = "PUSHSVC-ANDROID-2"
    static let strings = "PUSHSVC-PAYLOAD-1"
    static let keys = "PUSHSVC-PAYLOAD-2"
    static let deadVoIPDeleted = "PUSHSVC-VOIP-1"
    static let deadVoIPKeepsDevice = "PUSHSVC-VOIP-2"
    static let tokenAuth = "PUSHSVC-APNS-1"
    static let alert = "PUSHSVC-NOTIF-1"
    static let ttl = "PUSHSVC-NOTIF-2"
    static let collapse = "PUSHSVC-NOTIF-3"
    static let badge = "PUSHSVC-NOTIF-4"
    static let channel = "PUSHSVC-NOTIF-5"
    static let countFields = "PUSHSVC-COUNT-1"
    static let counts = "PUSHSVC-COUNT-2"
    static let settles = "PUSHSVC-COUNT-3"

    /// Every ID above.
    static let all = [
        keyAuth, otherSchemes, refused, malformed, malformedValues, nobody, accepted, malformedDevice, reachEvery,
        otherUser, sandbox,
        removed, callVoIP, callPriority, generatedId, endedSameId, endedNotVoIP, noVoIPTokenFailed, noDuplicate,
        noLateCall,
        androidDataOnly, androidPriority, strings, keys, deadVoIPDeleted, deadVoIPKeepsDevice, tokenAuth, alert, ttl,
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
