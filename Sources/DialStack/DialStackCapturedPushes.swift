import Conformance
import PushMocks

/// `check-payload --profile dialstack`: the dialstack push rules (`DialStackRules`) over captured pushes, without
/// the webhooks that caused them: VoIP headers, `apns-expiration` against the arrival, the FCM data message, its
/// priority and ttl, string values. Not the call ID: a push carries its webhook's `call_id` under any key the app's
/// call library reads (`DialStackPush.carries`), so without the webhooks no value can be told to be it.
enum DialStackCapturedPushes: CapturedPushJudge {
    static let profile = DialStackProfile.profileName
    static let unjudged =
        "without the webhooks, the call ID (its value may sit under any key), the copied caller fields, the user a "
        + "push went to, redeliveries and the latency are not judged"

    static let providers: [MockProviderID] = [.apns, .fcm]

    static func violations(of captures: [Capture], context: CapturedPushContext) -> [Violation] {
        let voipTopic = context.voipTopic
        return captures.flatMap { c in
            DialStackInvariants.check(
                [DialStackJudgedPush(capture: c, device: c.deviceToken ?? c.fcmTarget?.value ?? "?", user: "")],
                deliveries: [], voipTopic: CapturedPushCheck.voipTopic(voipTopic, for: c), callsKnown: false)
        }
    }
}

extension DialStackProfile {
    /// `check-payload --profile dialstack` judges captures by `DialStackCapturedPushes`.
    public var capturedPushJudge: (any CapturedPushJudge.Type)? { DialStackCapturedPushes.self }
}
