import Conformance
import PushMocks
import Synchronization

/// Which invitations an `expectNoPush` charged to CALLX-OUTBOX-1 ("a retried or concurrent request never sends a
/// second invitation") leaves out: as many copies (distinct eventIds) of the call's invitation to a device as the
/// same backend sent that device for one lone create in the same scenario (another call's accepted invitations
/// to the same token). A backend that sends every invitation twice (`duplicate-invite`) sends two for a lone
/// create as well: its second copy under concurrent creates is the duplicate it is (CALLX-OUTBOX-4, judged by the
/// invariants), not a second delivery the race made. Only copies beyond that baseline are OUTBOX-1's. Copies of
/// the baseline call that arrive after the step began are not counted (the baseline is read once, at its start),
/// so a late baseline copy leaves the check as strict as without one.
///
/// ```swift
/// let baseline = LoneCreateBaseline.copiesALoneCreateSends(requirement: "CALLX-OUTBOX-1", call: id, log: log)
/// let beyondTheBaseline = log.captures { isInvitation($0) && !baseline($0) }
/// ```
enum LoneCreateBaseline {
    /// The requirement whose second invitation is judged against the baseline.
    static let requirement = "CALLX-OUTBOX-1"

    /// A predicate for invitations of call `call` that are among the first copies (by distinct eventId, in the
    /// order they reached the mocks) that a lone create of another call sent the same token, when `requirement` is
    /// CALLX-OUTBOX-1; otherwise one that leaves out nothing.
    static func copiesALoneCreateSends(requirement: String?, call: String?, log: CaptureLog)
        -> @Sendable (Capture) -> Bool
    {
        guard requirement == Self.requirement, let call else { return { _ in false } }
        var copies: [String: [String: [String]]] = [:]  // token → call → distinct eventIds, first seen first
        for c in log.captures(where: { $0.outcome.isAccepted }) {
            guard let (token, callId, eventId) = invitation(c) else { continue }
            if copies[token, default: [:]][callId, default: []].contains(eventId) { continue }
            copies[token, default: [:]][callId, default: []].append(eventId)
        }
        let baseline = copies.mapValues { calls in calls.filter { $0.key != call }.map(\.value.count).max() ?? 1 }
        let seen = Mutex(copies.mapValues { $0[call] ?? [] })
        return { c in
            guard let (token, callId, eventId) = invitation(c), callId == call else { return false }
            let allowed = baseline[token] ?? 1
            return seen.withLock { seen in
                if let index = seen[token]?.firstIndex(of: eventId) { return index < allowed }
                seen[token, default: []].append(eventId)
                return seen[token]!.count <= allowed
            }
        }
    }

    /// The token, call ID and eventId of an invitation capture; nil for anything else.
    private static func invitation(_ c: Capture) -> (token: String, callId: String, eventId: String)? {
        guard let callx = PushMatchDocument.callx(c), callx["type"]?.stringValue == "call.invited",
            let callId = callx["callId"]?.stringValue, let eventId = callx["eventId"]?.stringValue,
            let token = (c.deviceToken ?? c.fcmTarget?.value)?.lowercased()
        else { return nil }
        return (token, callId, eventId)
    }
}
