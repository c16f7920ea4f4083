import Conformance
import JSON
import PushMocks

extension CallxLoadWorkload {
    // MARK: Judging

    /// The calls not judged yet, then everything found: each call's history (`HistoryChecker`) and its
    /// pushes and events (the profile's invariants), and the push latencies.
    func findings(drained: Bool) -> LoadFindings {
        let found = judge.judgeAll(drained: drained)
        return LoadFindings(
            history: found.history, invariants: found.invariants, pushes: found.pushes,
            invitations: found.invitations,
            pushLatency: [
                LatencyFigures(name: "invitation (from create)", histogram: found.invitationLatency),
                LatencyFigures(name: "stop signal (from answer/end)", histogram: found.stopSignalLatency),
            ].compactMap { $0 },
            incomplete: drained ? nil : "a feed could not be read to its end after the run")
    }

    /// Push latencies in `h` (milliseconds): an invitation's from its call's first create; any other push's
    /// (a stop signal) from the earliest request that answered or ended its call and was sent before the
    /// push arrived.
    static func pushLatencies(_ h: LoadHistory) -> (invitations: [Double], stopSignals: [Double]) {
        var creates: [String: Int64] = [:]
        var causes: [String: [Int64]] = [:]
        for op in h.operations {
            if op.kind == .create && !op.isRetry && creates[op.callId] == nil { creates[op.callId] = op.invokeMs }
            if (op.kind == .answer || op.kind == .end) && op.succeeded {
                causes[op.callId, default: []].append(op.invokeMs)
            }
        }
        var invitations: [Double] = []
        var others: [Double] = []
        for p in h.pushes {
            if p.isInvitation {
                if let t = creates[p.callId] { invitations.append(Double(p.arrivalMs - t)) }
            } else if let t = causes[p.callId]?.filter({ $0 <= p.arrivalMs }).min() {
                others.append(Double(p.arrivalMs - t))
            }
        }
        return (invitations, others)
    }
}
