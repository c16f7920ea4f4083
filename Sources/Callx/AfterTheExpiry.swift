import Conformance
import PushMocks

/// Which pushes an `expectNoPush` charged to CALLX-EXP-2 leaves out when the call stopped ringing by expiring
/// (neither answered nor ended before its `expiresAtMs`): those in flight at the expiry, by the rule the invariant
/// judges every invitation with (`InFlightInvitation.wasInFlight`). A retry the backend sent 150 ms before the
/// expiry may reach the mock after it on a loaded machine: "no invitation after the expiry" is about what the
/// backend sent once it knew the call had expired, not about when the mock read it. A call that was answered or
/// ended first is judged from that moment (`AfterTheEnd`), not from its expiry.
///
/// ```swift
/// let inFlight = AfterTheExpiry.inFlightAtExpiry(
///     requirement: "CALLX-EXP-2", call: callId, calls: state.calls, marginMs: 1000)
/// let afterTheExpiry = log.captures { isInvitation($0) && !inFlight($0) }
/// ```
enum AfterTheExpiry {
    /// A predicate for invitations of call `call` that were in flight when it expired, when `requirement` is
    /// CALLX-EXP-2 and the call's expiry is the first moment it stopped ringing; otherwise one that leaves out
    /// nothing.
    static func inFlightAtExpiry(
        requirement: String?, call: String?, calls: [String: CallTimeline], marginMs: Int64,
        boundMs: Int64 = InFlightInvitation.issuedBoundMs
    ) -> @Sendable (Capture) -> Bool {
        guard requirement == AfterTheEnd.requirement, let call, let timeline = calls[call],
            let expiresAtMs = timeline.expiresAtMs, timeline.stoppedRinging?.atMs == expiresAtMs
        else { return { _ in false } }
        return { c in
            guard let callx = PushMatchDocument.callx(c), callx["type"]?.stringValue == "call.invited",
                callx["callId"]?.stringValue == call
            else { return false }
            return InFlightInvitation.wasInFlight(
                arrivalMs: c.arrivalMs, issuedAtMs: ValueRules.millis(callx["issuedAtMs"]), stopMs: expiresAtMs,
                marginMs: marginMs, boundMs: boundMs)
        }
    }
}
