import PushMocks

/// Which pushes an `expectNoPush` charged to CALLX-EXP-2 ("no invitation after the end") leaves out: those on
/// their way before the call's end request left (`CallTimeline.endRequestOrder`): read by the mocks, or sent on a
/// connection the client opened for it (`Capture.onItsWayOrder`), before then. Such a push — a backend's second
/// copy of the invitation, sent before anyone asked for the end, perhaps on a second APNs connection whose
/// handshake ended only after the end — is the duplicate it is, judged by the duplicate rule, not an invitation
/// after the end. Told by `ArrivalOrder` (as `DeadTokenRefusal` tells a dead token's reuse), never by comparing
/// milliseconds. A push recorded without a listener (no arrival order) is never left out.
///
/// ```swift
/// let before = AfterTheEnd.arrivedBeforeEnd(requirement: "CALLX-EXP-2", call: callId, calls: state.calls)
/// let afterTheEnd = log.captures { isInvitation($0) && !before($0) }
/// ```
enum AfterTheEnd {
    /// The requirement whose "after" is the end request.
    static let requirement = "CALLX-EXP-2"

    /// A predicate for pushes that reached the mocks before call `call`'s end request left, when `requirement`
    /// is CALLX-EXP-2 and an end request for the call was sent; otherwise one that leaves out nothing.
    static func arrivedBeforeEnd(requirement: String?, call: String?, calls: [String: CallTimeline])
        -> @Sendable (Capture) -> Bool
    {
        guard requirement == Self.requirement, let call, let endOrder = calls[call]?.endRequestOrder else {
            return { _ in false }
        }
        return { c in c.arrivalOrder > 0 && c.onItsWayOrder < endOrder }
    }
}
