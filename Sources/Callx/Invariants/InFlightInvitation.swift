import Conformance

/// When an invitation's send began, as judged against the moment its call stopped ringing: the rule load
/// mode's history check and the fake caller share (the suite's CALLX-EXP-2 has the same bound).
enum InFlightInvitation {
    /// How long after the stop an invitation the backend built before it may still arrive: in flight (a
    /// loaded machine can hold a sent push seconds in the HTTP/2 client), not stuck.
    static let issuedBoundMs: Int64 = 15_000

    /// A message's first send began when the backend built it (`issuedAtMs`), when that is earlier than its
    /// arrival (a backend clock ahead of ours must not make a send in time look late) and it arrived within
    /// `boundMs` of the stop at `stopMs`; a repeat (a retry), and a send stuck longer, began at its arrival.
    static func sendBeganMs(
        arrivalMs: Int64, issuedAtMs: Int64?, firstSend: Bool, stopMs: Int64, boundMs: Int64
    ) -> Int64 {
        guard firstSend, let issued = issuedAtMs, issued < arrivalMs, arrivalMs - stopMs <= boundMs else {
            return arrivalMs
        }
        return issued
    }

    /// Whether an invitation that arrived at `arrivalMs` was in flight when its call stopped ringing at `stopMs`
    /// rather than sent after it (CALLX-EXP-2): it arrived within `marginMs` of the stop, or the backend stamped it
    /// as sent (`issuedAtMs`, the seed's "when the backend sent it") no later than the stop and it arrived within
    /// `boundMs` of it. The invariant and a step's "no invitation after the expiry" judge by this one rule.
    static func wasInFlight(arrivalMs: Int64, issuedAtMs: Int64?, stopMs: Int64, marginMs: Int64, boundMs: Int64)
        -> Bool
    {
        let late = arrivalMs - stopMs
        if late <= marginMs { return true }
        guard let issuedAtMs else { return false }
        return issuedAtMs <= stopMs && late <= boundMs
    }
}
