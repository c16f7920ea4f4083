/// The requirement IDs of `suites/dialstack/requirements.yaml` the profile's own checks charge (the levels come
/// from the catalogue; `DialStackProfileTests` checks that every ID here is in it).
enum DialStackRequirement {
    /// The seed's `t=…,v1=…` signature, checked over the raw bytes.
    static let rawBody = "DIALSTACK-SIG-1"
    /// The user whose devices an event wakes, and no one else.
    static let otherUser = "DIALSTACK-WAKE-2"
    /// Only `call.mobile_push_wakeup` with a `data.user_id` wakes anyone.
    static let wakeUpOnly = "DIALSTACK-WAKE-3"
    static let callId = "DIALSTACK-PUSH-1"
    static let apnsPushType = "DIALSTACK-APNS-1"
    static let apnsTopic = "DIALSTACK-APNS-2"
    static let apnsPriority = "DIALSTACK-APNS-3"
    static let apnsExpiration = "DIALSTACK-APNS-4"
    static let apnsCallerFields = "DIALSTACK-APNS-5"
    static let fcmDataOnly = "DIALSTACK-FCM-1"
    static let fcmPriority = "DIALSTACK-FCM-2"
    static let fcmTTL = "DIALSTACK-FCM-3"
    static let fcmStrings = "DIALSTACK-FCM-4"
    static let fcmFields = "DIALSTACK-FCM-5"
    static let latency = "DIALSTACK-LAT-1"
    /// A redelivered event rings no device a second time.
    static let redelivery = "DIALSTACK-DEDUP-1"

    /// Every ID above.
    static let all = [
        rawBody, otherUser, wakeUpOnly, callId, apnsPushType, apnsTopic, apnsPriority, apnsExpiration,
        apnsCallerFields, fcmDataOnly, fcmPriority, fcmTTL, fcmStrings, fcmFields, latency, redelivery,
    ]
}

/// The time rules the profile judges by.
enum DialStackTiming {
    /// The seed's TTL for both pushes: `apns-expiration` at most this long after arrival, FCM ttl at most this.
    static let pushTTLSeconds: Int64 = 30
    /// A backend may round its clock up to the next second before adding the TTL.
    static let roundingMarginMs: Int64 = 1000
    /// Our latency bound from the webhook being sent to a push reaching the provider (DIALSTACK-LAT-1): the seed's
    /// 30 s budget also covers the app waking, reconnecting and the user answering, so the backend may take at most
    /// half of it. A conforming backend needs a few ms; 5 s was too tight: 7 s were seen for a first FCM push (OAuth
    /// exchange included) on a 2-core machine running the whole test suite beside four compilers.
    static let latencyBoundMs: Int64 = 15_000
}
