import Conformance

/// The requirement IDs of `suites/dialstack/requirements.yaml` the profile's own checks charge (the levels come
/// from the catalogue; `DialStackProfileTests` checks that every ID here is in it).
enum DialStackRequirement {
    /// The seed's `t=…,v1=…` signature, checked over the raw bytes.
    static let rawBody: RequirementID = "DIALSTACK-SIG-1"
    /// Every device of the wake-up's user gets a push.
    static let everyDevice: RequirementID = "DIALSTACK-WAKE-1"
    /// The user whose devices an event wakes, and no one else.
    static let otherUser: RequirementID = "DIALSTACK-WAKE-2"
    /// Only `call.mobile_push_wakeup` with a `data.user_id` wakes anyone.
    static let wakeUpOnly: RequirementID = "DIALSTACK-WAKE-3"
    static let callId: RequirementID = "DIALSTACK-PUSH-1"
    static let apnsPushType: RequirementID = "DIALSTACK-APNS-1"
    static let apnsTopic: RequirementID = "DIALSTACK-APNS-2"
    static let apnsPriority: RequirementID = "DIALSTACK-APNS-3"
    static let apnsExpiration: RequirementID = "DIALSTACK-APNS-4"
    static let apnsCallerFields: RequirementID = "DIALSTACK-APNS-5"
    static let fcmDataOnly: RequirementID = "DIALSTACK-FCM-1"
    static let fcmPriority: RequirementID = "DIALSTACK-FCM-2"
    static let fcmTTL: RequirementID = "DIALSTACK-FCM-3"
    static let fcmStrings: RequirementID = "DIALSTACK-FCM-4"
    static let fcmFields: RequirementID = "DIALSTACK-FCM-5"
    static let latency: RequirementID = "DIALSTACK-LAT-1"
    /// A redelivered event rings no device a second time.
    static let redelivery: RequirementID = "DIALSTACK-DEDUP-1"

    /// Every ID above: the signature's (a scenario file charges it), one rule's each (`DialStackRules`), the
    /// latency's.
    static var all: [RequirementID] { [rawBody] + DialStackRules.all.map(\.requirement) + [latency] }
}

/// The time rules the profile judges by.
public enum DialStackTiming {
    /// The seed's TTL for both pushes: `apns-expiration` at most this long after arrival, FCM ttl at most this.
    static let pushTTLSeconds: Int64 = 30
    /// A backend may round its clock up to the next second before adding the TTL.
    static let roundingMarginMs: Int64 = 1000
    /// Our latency bound from the webhook being sent to a push reaching the provider (DIALSTACK-LAT-1): the seed's
    /// 30 s budget also covers the app waking, reconnecting and the user answering, so the backend may take at most
    /// half of it. A conforming backend needs a few ms; 5 s was too tight: 7 s were seen for a first FCM push (OAuth
    /// exchange included) on a 2-core machine running the whole test suite beside four compilers.
    static let latencyBoundMs: Int64 = 15_000
    /// How long ringcheck waits for a webhook's answer unless the target says otherwise (`webhook.answerTimeout`):
    /// the seed's handler answers only once its pushes are sent, so the wait must outlast the latency bound and the
    /// seed's 30 s budget, or a slow backend would read as a harness error rather than a late push.
    public static let webhookAnswerTimeoutSeconds: Double = 45
}
