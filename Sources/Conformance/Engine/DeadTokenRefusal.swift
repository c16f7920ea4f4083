import PushMocks

/// When a push to a token the provider refused as gone is reuse of a dead token (CALLX-TOK-6/TOK-7): only when it
/// reached the mock after the refusal's answer could have been sent. A copy that arrived before — a backend that
/// sends each invitation twice, the two copies in the same millisecond — was sent before the backend could know:
/// the duplicate it is (judged by the duplicate rule), not reuse. Told by the mocks' `ArrivalOrder` (the
/// listener's read of the push against the mock's recording of the refusal), never by comparing milliseconds.
///
/// ```swift
/// let beforeRefusal = DeadTokenRefusal.sentBeforeRefusal(log, consumed: consumedPushes, devices: [phone])
/// let reuse = log.captures { isFor(phone, $0) && !beforeRefusal($0) }
/// ```
enum DeadTokenRefusal {
    /// Whether `c` is a refusal saying its token is gone, as `carrier` (the device's provider) says.
    static func isDead(_ c: Capture, carrier: any MockProvider.Type) -> Bool {
        guard let reason = c.outcome.reason else { return false }
        return carrier.meansTokenGone(FaultResponse(status: c.response.status, reason: reason, errorCode: reason))
    }

    /// Whether `push` reached the mock before `refusal`'s answer could have been sent. Captures recorded without a
    /// listener (no arrival order) fall back on the log's order.
    static func arrivedBefore(_ push: Capture, answerOf refusal: Capture) -> Bool {
        if push.arrivalOrder > 0 && refusal.decidedOrder > 0 { return push.arrivalOrder < refusal.decidedOrder }
        return push.sequence < refusal.sequence
    }

    /// A predicate for pushes to `devices` that reached the mock before it answered a dead-token refusal of the
    /// same token that the scenario matched (`consumed`): those are no reuse of the dead token.
    static func sentBeforeRefusal(_ log: CaptureLog, consumed: Set<Int>, devices: [DeviceIdentity])
        -> @Sendable (Capture) -> Bool
    {
        let refusals: [(refusal: Capture, token: String)] = log.captures { consumed.contains($0.sequence) }
            .compactMap { c in
                guard
                    let d = devices.first(where: { ScenarioRun.capture(c, isFor: $0) }),
                    isDead(c, carrier: d.kind.carrier), let token = d.kind.carrier.deviceToken(of: c)
                else { return nil }
                return (c, token.lowercased())
            }
        guard !refusals.isEmpty else { return { _ in false } }
        return { c in
            refusals.contains { r in
                r.refusal.mock == c.mock && r.refusal.sequence != c.sequence
                    && (c.deviceToken ?? c.fcmTarget?.value)?.lowercased() == r.token
                    && arrivedBefore(c, answerOf: r.refusal)
            }
        }
    }
}
