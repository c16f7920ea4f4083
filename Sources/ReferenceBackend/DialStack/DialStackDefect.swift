/// A deliberate departure from one rule of the DialStack wake-up flow (`dialstack-push-wakeup.txt`).
///
/// The wake-up reference backend is correct with no defects; each switch breaks exactly one rule,
/// so the dialstack suite can show that the check for that rule can fail.
public enum DialStackDefect: String, ReferenceDefect {
    case verifyParsedBody = "verify-parsed-body"
    case noSignatureCheck = "no-signature-check"
    case noTimestampCheck = "no-timestamp-check"
    case pushOnRinging = "push-on-ringing"
    case apnsExpiration0 = "apns-expiration-0"
    case fcmNotificationBlock = "fcm-notification-block"
    case fcmTTLLong = "fcm-ttl-long"
    case missingCallID = "missing-call-id"
    case firstDeviceOnly = "first-device-only"
    case wrongUser = "wrong-user"
    case ringTwiceOnRedelivery = "ring-twice-on-redelivery"
    case slowPush = "slow-push"
    case slowAnswer = "slow-answer"

    /// One line for `--help`: what the backend does wrong with this switch on.
    public var summary: String {
        switch self {
        case .verifyParsedBody:
            return "the signature is checked over the body parsed and re-serialized, not the raw bytes received"
        case .noSignatureCheck: return "webhooks are accepted whatever their x-dialstack-signature says, or without one"
        case .noTimestampCheck: return "the signature's t= is not compared with the clock: stale and future ones pass"
        case .pushOnRinging: return "call.ringing and call.incoming events with a user_id also wake the user's devices"
        case .apnsExpiration0: return "VoIP pushes carry apns-expiration 0 instead of now + 30 s"
        case .fcmNotificationBlock: return "FCM wake-ups carry a notification block (a banner, not a data message)"
        case .fcmTTLLong: return "FCM wake-ups carry android.ttl 3600s instead of 30s"
        case .missingCallID: return "pushes leave out the webhook's call_id"
        case .firstDeviceOnly: return "only the first registered device of data.user_id is pushed"
        case .wrongUser: return "every registered device is pushed, whoever it belongs to, not only data.user_id's"
        case .ringTwiceOnRedelivery:
            return "a redelivered event (same id, or same content without one) wakes the devices again"
        case .slowPush: return "pushes go out about 20 s after the webhook, well past the latency bound"
        case .slowAnswer:
            return "the webhook is answered only after its pushes, which go out 16 s after it (past the latency bound)"
        }
    }
}
