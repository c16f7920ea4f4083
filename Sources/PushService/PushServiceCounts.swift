import Conformance
import JSON
import PushMocks

/// The delivery counts a notification must report, from what the APNs and FCM mocks accepted and refused: a device
/// with an accepted push is `successful`; one whose every attempt was refused as a dead token (410, APNs
/// `BadDeviceToken`/`Unregistered`, FCM 404 `UNREGISTERED`) — or an iOS device without a VoIP token for a call,
/// is `failed`; one refused otherwise (429, 5xx after the retries) is `errored`. An iOS device without a VoIP
/// token for a call, which gets no attempt at all, is "tính lỗi" (counted as an error) in the seed, which never
/// tells `failed` from `errored`: it may be either (`failedOrErrored`). So may a device of an incoming call that got
/// no accepted push when the ring had ended before the counts were read: a service must not send after the ring
/// (PUSHSVC-CALL-8), and what it dropped unsent, or stopped retrying, it may count either way.
struct PushServiceCounts: Sendable, Equatable {
    var successful = 0
    var failed = 0
    var errored = 0
    /// Devices that count as `failed` or as `errored`, the service's choice.
    var failedOrErrored = 0
    /// Devices no push reached at all (neither accepted nor refused): a service that never sent counts none.
    var unattempted = 0
    /// Devices a push reached that fits this notification and another one alike (`PushServiceAttribution`): what
    /// they count as cannot be told, so the counts are not judged.
    var ambiguous: [String] = []

    /// The counts for `notification`'s `devices`, read (settled) at `readAtMs`: a device's attempts are the pushes
    /// to its tokens that `PushServiceAttribution` ties to `notification` among `notifications` (every request of
    /// the run; nil: `notification` alone).
    static func expected(
        for notification: PushServiceNotification, devices: [PushServiceDevice], captures: [Capture],
        notifications: [PushServiceNotification]? = nil, readAtMs: Int64? = nil
    ) -> PushServiceCounts {
        let all = notifications ?? [notification]
        let own = all.firstIndex { $0.marker == notification.marker }
        var out = PushServiceCounts()
        // The service can have given up on the ring only once it ended, and it ended no earlier than this.
        let ringEnded = notification.earliestRingEndMs.map { end in readAtMs.map { $0 >= end } ?? false } ?? false
        for d in devices {
            var attempts: [Capture] = []
            for c in captures {
                guard let token = token(of: c), d.tokens.contains(where: { $0.lowercased() == token.lowercased() }),
                    let p = PushServicePush(c)
                else { continue }
                switch PushServiceAttribution.of(c, p, device: d, all) {
                case .request(let i) where i == own: attempts.append(c)
                case .unattributed(let candidates) where own.map(candidates.contains) ?? false:
                    if !out.ambiguous.contains(d.name) { out.ambiguous.append(d.name) }
                default: break
                }
            }
            if attempts.contains(where: { $0.outcome.isAccepted }) {
                out.successful += 1
            } else if attempts.isEmpty {
                if (notification.isCall && d.platform == .ios && d.voipToken == nil) || ringEnded {
                    out.failedOrErrored += 1
                } else {
                    out.unattempted += 1
                }
            } else if attempts.allSatisfy(isDeadToken) {
                out.failed += 1
            } else if ringEnded {
                out.failedOrErrored += 1
            } else {
                out.errored += 1
            }
        }
        return out
    }

    /// Whether a service's counts are these: the same successes, and the devices that failed or errored split
    /// as `failed` and `errored` say, each of `failedOrErrored` on either side.
    func admits(successful s: Int, failed f: Int, errored e: Int) -> Bool {
        s == successful && f >= failed && e >= errored && f + e == failed + errored + failedOrErrored
    }

    /// The counts as expected text.
    var expectedText: String {
        guard failedOrErrored > 0 else { return "successful \(successful), failed \(failed), errored \(errored)" }
        return "successful \(successful), failed + errored \(failed + errored + failedOrErrored) (failed at least "
            + "\(failed), errored at least \(errored))"
    }

    static func token(of c: Capture) -> String? { c.mock == .apns ? c.deviceToken : c.fcmTarget?.value }

    /// A refusal that says the token will never work again.
    static func isDeadToken(_ c: Capture) -> Bool {
        let status = c.response.status
        if status == 410 { return true }
        let reason = (try? JSONValue.parse(c.response.body))
        let text = reason?["reason"]?.stringValue ?? reason?.value(atPath: "error.status")?.stringValue ?? ""
        if status == 400 && text == "BadDeviceToken" { return true }
        return status == 404 && (c.mock == .fcm || text == "UNREGISTERED")
    }
}
