/// A deliberate departure from one rule of the Callx backend spec.
///
/// The reference backend is correct with no defects; each switch breaks exactly one rule, so
/// the conformance suite can show that the check for that rule can fail.
public enum CallxDefect: String, ReferenceDefect {
    case noIdempotency = "no-idempotency"
    case idempotencyIgnoresPayload = "idempotency-ignores-payload"
    case racyAnswer = "racy-answer"
    case apnsExpiration30 = "apns-expiration-30"
    case fixedTTL30s = "fixed-ttl-30s"
    case zeroTTL = "zero-ttl"
    case notificationBlock = "notification-block"
    case duplicateInviteOnRetry = "duplicate-invite-on-retry"
    case inviteAfterCancel = "invite-after-cancel"
    case silentGap = "silent-gap"
    case noMembershipCheck = "no-membership-check"
    case identityFromBody = "identity-from-body"
    case keepDeadTokens = "keep-dead-tokens"
    case noRetry = "no-retry"
    case revisionNotIncremented = "revision-not-incremented"
    case voipStopSignal = "voip-stop-signal"
    case retryAfterExpiry = "retry-after-expiry"
    case lateAnswerWins = "late-answer-wins"
    case resurrectEndedCall = "resurrect-ended-call"
    case longLivedMedia = "long-lived-media"
    case forgetOnRestart = "forget-on-restart"
    case logPushSecrets = "log-push-secrets"
    case cursorAheadNoGap = "cursor-ahead-no-gap"
    case endReasonNotStored = "end-reason-not-stored"
    case inviteLastDeviceOnly = "invite-last-device-only"
    case flatCallerSnapshot = "flat-caller-snapshot"
    case bareStopSignal = "bare-stop-signal"
    case duplicateInvite = "duplicate-invite"

    /// One line for `--help`: what the backend does wrong with this switch on.
    public var summary: String {
        switch self {
        case .noIdempotency: return "operationId is ignored: every retry of create/answer/end runs again"
        case .idempotencyIgnoresPayload:
            return "a reused operationId replays the first outcome even when the payload differs (no 409)"
        case .racyAnswer: return "answer reads and writes in separate steps, so concurrent answers can all win"
        case .apnsExpiration30: return "VoIP pushes carry apns-expiration = now + 30 s instead of 0"
        case .fixedTTL30s: return "FCM invitations always carry ttl 30s instead of the seconds left until expiry"
        case .zeroTTL: return "FCM invitations carry ttl 0s"
        case .notificationBlock: return "FCM invitations include a notification block"
        case .duplicateInviteOnRetry: return "a retried create (same operationId) sends the invitation again"
        case .inviteAfterCancel: return "invitations are still sent after the call was cancelled or answered"
        case .silentGap: return "the event feed skips events lost to retention without reporting a gap"
        case .noMembershipCheck: return "any signed-in user may read, answer, end or join any call"
        case .identityFromBody: return "the caller's identity is taken from the create request body"
        case .keepDeadTokens: return "tokens APNs or FCM report as unregistered or invalid are kept and reused"
        case .noRetry: return "pushes that fail with 429 or 5xx are not retried"
        case .revisionNotIncremented: return "call changes leave the revision as it was"
        case .voipStopSignal: return "call.ended stop signals are also sent to iOS devices as VoIP pushes"
        case .retryAfterExpiry: return "failed invitations are retried even after the call has expired"
        case .lateAnswerWins: return "an answer after the call was answered replaces the winner instead of 409"
        case .resurrectEndedCall: return "a create for an ended callId starts it ringing again instead of 409"
        case .longLivedMedia: return "media credentials stay valid for 30 days instead of minutes"
        case .forgetOnRestart:
            return "calls, events and pending pushes live in memory only (even with --db), so a restart loses them"
        case .logPushSecrets: return "the backend log carries request bodies, push tokens and push payloads in full"
        case .cursorAheadNoGap:
            return "a cursor ahead of the feed (events lost, e.g. in a restart) reads as up to date: no events, no gap"
        case .endReasonNotStored:
            return "the end reason is not stored: ended snapshots say remoteEnded whatever was asked"
        case .inviteLastDeviceOnly:
            return "one push token per user: only the callee's most recently registered device gets the invitation"
        case .flatCallerSnapshot:
            return "snapshots spread the caller flat (callerUserId, displayName, handle) instead of a caller object"
        case .bareStopSignal:
            return "FCM call.ended stop signals carry only type, callId and reason (no eventId, revision, occurredAtMs)"
        case .duplicateInvite:
            return "each invitation is queued twice, with two eventIds, and both copies go out together"
        }
    }
}
