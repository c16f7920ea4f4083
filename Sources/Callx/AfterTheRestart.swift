import Conformance
import PushMocks

/// Which pushes an `expectNoPush` charged to CALLX-E2E-3 ("an engine restart loses nothing … each push still
/// goes out once") leaves out: those the mocks read, or whose own connection they accepted, before the scenario's
/// last `restartBackend` step began (`RunContext.backendRestartOrder`). Such a push — a backend's second copy of
/// an invitation, sent with the first before anything was restarted, possibly on a connection it opened for the
/// copy whose handshake a busy machine delayed — is the duplicate it is, judged by the duplicate rule
/// (CALLX-OUTBOX-4), not something the restart repeated or made. Told by `ArrivalOrder` (`Capture.onItsWayOrder`,
/// as `AfterTheEnd` does), never by comparing milliseconds. A push recorded without a listener (no arrival order)
/// is never left out.
///
/// ```swift
/// let before = AfterTheRestart.arrivedBeforeRestart(requirement: "CALLX-E2E-3", restartOrder: order)
/// let afterTheRestart = log.captures { isInvitation($0) && !before($0) }
/// ```
enum AfterTheRestart {
    /// The requirement whose "after" is the restart.
    static let requirement = "CALLX-E2E-3"

    /// A predicate for pushes that reached the mocks before the restart began, when `requirement` is
    /// CALLX-E2E-3 and the backend was restarted; otherwise one that leaves out nothing.
    static func arrivedBeforeRestart(requirement: String?, restartOrder: UInt64?) -> @Sendable (Capture) -> Bool {
        guard requirement == Self.requirement, let restartOrder else { return { _ in false } }
        // On its way, not read: a copy that opened a connection of its own before the restart began was sent
        // before it, however long that connection's handshake kept it from being read.
        return { c in c.arrivalOrder > 0 && c.onItsWayOrder < restartOrder }
    }
}
