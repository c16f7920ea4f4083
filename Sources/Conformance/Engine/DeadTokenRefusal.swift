import PushMocks

/// When a push to a token the provider refused as gone is reuse of a dead token (CALLX-TOK-6/TOK-7): only when it
/// left after the refusal's answer did. A copy on its way before — a backend that sends each invitation twice: the
/// copy read while the refusal's answer waited to be written, or sent on a second connection the client opened
/// while the first was busy (an APNs connection takes one stream until a provider token is accepted) and read
/// only after that connection's handshake, or still waiting on the socket when the answer was written, or sent on
/// the refusal's own connection before the client acknowledged the PING that followed the refusal — was sent
/// before the backend could know: the duplicate it is (judged by the duplicate rule), not reuse. Told by the
/// mocks' `ArrivalOrder` (the push's read, or its connection's accept when it opened the connection, against the
/// write of the refusal's answer), never by milliseconds.
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

    /// Whether `push` was on its way before `refusal`'s answer left: read by the mock, or its connection opened to
    /// send it (`Capture.onItsWayOrder`), before the answer was written out (`Capture.sentOrder`; the listener
    /// reads what already waits on its sockets, and accepts waiting connections, before it writes such an
    /// answer, so a copy the client sent before the answer could reach it is ordered first; an answer without
    /// a stamp left right after deciding, `decidedOrder`). On the refusal's own HTTP/2 connection the client had
    /// the refusal only once it acknowledged the PING the mock sent right after it (`Capture.readOrder`): a copy
    /// opened on that connection before the ACK was sent before the backend could have read it, however soon
    /// after the write it was read. Other connections keep the write. An answer never written (its connection
    /// closed first) told the backend nothing. Captures recorded without a listener (no arrival order) fall back on
    /// the log's order.
    static func arrivedBefore(_ push: Capture, answerOf refusal: Capture) -> Bool {
        guard push.arrivalOrder > 0 && refusal.decidedOrder > 0 else { return push.sequence < refusal.sequence }
        // On the refusal's own connection, the client had it once it acknowledged the PING the mock sent after it.
        if push.connectionID == refusal.connectionID && refusal.readOrder > 0 {
            return push.onItsWayOrder < refusal.readOrder
        }
        let left = refusal.sentOrder.map { $0 == 0 ? UInt64.max : $0 } ?? refusal.decidedOrder
        return push.onItsWayOrder < left
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
