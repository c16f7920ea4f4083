import Conformance
import PushMocks

/// Which pushes an `expectNoPush` charged to CALLX-EXP-2 ("no invitation after the end") leaves out: those the
/// mocks read, or whose own connection they accepted, before the call's end request left
/// (`CallTimeline.endRequestOrder`). Such a push — a backend's second copy of the invitation, sent before anyone
/// asked for the end, possibly on a connection it opened for the copy whose handshake a busy machine delayed — is
/// the duplicate it is, judged by the duplicate rule, not an invitation after the end. Told by `ArrivalOrder`
/// (`Capture.onItsWayOrder` against the position taken before the end request was sent), never by comparing
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
        // On its way, not read: a copy that opened a connection of its own before the end request left was sent
        // before it, however long that connection's handshake kept it from being read.
        return { c in c.arrivalOrder > 0 && c.onItsWayOrder < endOrder }
    }
}
