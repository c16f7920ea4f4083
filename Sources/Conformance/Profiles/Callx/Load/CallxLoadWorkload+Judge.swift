import JSON
import PushMocks

extension LoadDriver {
    // MARK: Judging

    /// The calls not judged yet, then the report: the verdict from every call's history (`HistoryChecker`)
    /// and its pushes and events (the profile's invariants), and the figures.
    func judgeRun(
        drained: Bool, startedAtMs: Int64, callSeconds: Double, totalSeconds: Double, samples: [ProcessSample]
    )
        -> LoadResult
    {
        let found = judge.judgeAll(drained: drained)
        let s = recorder.snapshot
        var inconclusive: String?
        if s.finished == 0 {
            inconclusive = "no call was placed"
        } else if s.failedCalls * 10 > s.started {
            inconclusive = "\(s.failedCalls) of \(s.started) calls failed: too few were judged"
        } else if !drained {
            inconclusive = "a feed could not be read to its end after the run"
        }
        let endpoints = LoadOperation.Kind.allCases.compactMap {
            LatencyFigures(name: $0.rawValue, histogram: s.latencies[$0] ?? LatencyHistogram())
        }
        let verdict = LoadReport.verdict(
            history: found.history, invariants: found.invariants, inconclusive: inconclusive)
        let report = LoadReport(
            verdict: verdict, exitCode: verdict.exitCode, profile: "callx", target: target.name, plan: plan.summary,
            rate: plan.rate, concurrency: plan.concurrency,
            startedAtMs: startedAtMs, callSeconds: callSeconds, totalSeconds: totalSeconds, callsStarted: s.started,
            callsFinished: s.finished, callsFailed: s.failedCalls,
            scripts: Dictionary(s.scripts.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { a, _ in a }),
            callsPerSecond: callSeconds > 0 ? Double(s.finished) / callSeconds : 0,
            requests: s.latencies.values.map(\.count).reduce(0, +), transportErrors: s.transportErrors,
            pushes: found.pushes, invitations: found.invitations, endpoints: endpoints,
            pushLatency: [
                LatencyFigures(name: "invitation (from create)", histogram: found.invitationLatency),
                LatencyFigures(name: "stop signal (from answer/end)", histogram: found.stopSignalLatency),
            ].compactMap { $0 },
            resources: watched.flatMap { ResourceFigures(process: $0, samples: samples) },
            historyViolations: found.history, invariantViolations: found.invariants, problems: s.problems,
            inconclusiveReason: inconclusive)
        return LoadResult(report: report)
    }

    /// How long an invitation's send may begin after the driver knew the call stopped ringing.
    static var inFlightMarginMs: Int64 { 1000 }

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
