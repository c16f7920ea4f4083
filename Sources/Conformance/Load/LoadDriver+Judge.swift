import JSON
import PushMocks

extension LoadDriver {
    // MARK: Judging

    /// The history of the run, checked with `HistoryChecker` and every push and event with the profile's
    /// invariants, and the figures.
    func judge(
        bookmark: Int, drained: Bool, startedAtMs: Int64, callSeconds: Double, totalSeconds: Double,
        samples: [ProcessSample]
    ) -> LoadResult {
        let s = recorder.snapshot
        let callIds = Set(s.calls.map(\.callId))
        let captures =
            mocks?.log.captures(where: { c in
                c.sequence > bookmark && c.mock != .oauth
                    && PushMatchDocument.callx(c)?["callId"]?.stringValue.map(callIds.contains) == true
            }) ?? []
        let installations = Dictionary(
            devices.flatMap { $0 }.map { ($0.token.lowercased(), $0.installationId) }, uniquingKeysWith: { a, _ in a })
        let pushes = captures.map { c -> LoadPush in
            let callx = PushMatchDocument.callx(c)
            let token = (c.deviceToken ?? c.fcmTarget?.value ?? "").lowercased()
            return LoadPush(
                sequence: c.sequence, callId: callx?["callId"]?.stringValue ?? "",
                device: installations[token] ?? Redaction.shortToken(token), type: callx?["type"]?.stringValue ?? "?",
                eventId: callx?["eventId"]?.stringValue, revision: Self.revision(callx?["revision"]),
                issuedAtMs: callx?["issuedAtMs"]?.epochMsValue, arrivalMs: c.arrivalMs, accepted: c.outcome.isAccepted)
        }
        let history = LoadHistory(
            calls: s.calls, operations: s.operations, pushes: pushes, feeds: s.feeds, feedsDrained: drained,
            inFlightMarginMs: inFlightMarginMs)
        let historyViolations = HistoryChecker.check(history)
        let invariants = invariantFindings(captures: captures, events: s.rawEvents, callIds: callIds, history: history)

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
        let report = LoadReport(
            verdict: LoadReport.verdict(history: historyViolations, invariants: invariants, inconclusive: inconclusive),
            profile: "callx", target: target.name, plan: plan.summary, rate: plan.rate, concurrency: plan.concurrency,
            startedAtMs: startedAtMs, callSeconds: callSeconds, totalSeconds: totalSeconds, callsStarted: s.started,
            callsFinished: s.finished, callsFailed: s.failedCalls,
            scripts: Dictionary(s.scripts.map { ($0.key.rawValue, $0.value) }, uniquingKeysWith: { a, _ in a }),
            callsPerSecond: callSeconds > 0 ? Double(s.finished) / callSeconds : 0,
            requests: s.latencies.values.map(\.count).reduce(0, +), transportErrors: s.transportErrors,
            pushes: pushes.count, invitations: pushes.filter(\.isInvitation).count, endpoints: endpoints,
            pushLatency: Self.pushLatency(history),
            resources: watched.flatMap { ResourceFigures(process: $0, samples: samples) },
            historyViolations: historyViolations, invariantViolations: invariants, problems: s.problems,
            inconclusiveReason: inconclusive)
        return LoadResult(report: report, history: history)
    }

    /// How long an invitation's send may begin after the driver knew the call stopped ringing.
    var inFlightMarginMs: Int64 { 1000 }

    /// The profile's invariants (`InvariantChecker`, as every scenario of the suite applies them) over
    /// every push for the run's calls and every event the feeds returned for them.
    func invariantFindings(captures: [Capture], events: [ObservedEvent], callIds: Set<String>, history: LoadHistory)
        -> [LoadInvariantFinding]
    {
        guard let mocks else { return [] }
        let own = events.filter { $0.json["callId"]?.stringValue.map(callIds.contains) ?? true }
        var timelines: [String: CallTimeline] = [:]
        for (id, call) in history.calls { timelines[id] = CallTimeline(callId: id, expiresAtMs: call.expiresAtMs) }
        for op in history.operations where op.succeeded {
            guard var t = timelines[op.callId] else { continue }
            if op.state == "accepted" {
                t.answeredObservedAtMs = min(t.answeredObservedAtMs ?? op.completeMs, op.completeMs)
            }
            if op.state == "ended" { t.endedObservedAtMs = min(t.endedObservedAtMs ?? op.completeMs, op.completeMs) }
            timelines[op.callId] = t
        }
        let context = InvariantContext(
            devices: devices.flatMap { $0 }.map {
                InvariantDevice(name: $0.installationId, kind: $0.kind, environment: $0.environment, tokens: [$0.token])
            },
            voipTopic: mocks.settings.apnsVoIPTopic, calls: Array(timelines.values), inFlightMarginMs: inFlightMarginMs,
            providerSecrets: ScenarioEngine.keyLines(mocks))
        let bySequence = Dictionary(captures.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        let inFlight = HistoryChecker.inFlightInvitations(history)
        let violations = InvariantChecker.check(captures: captures, events: own, context: context).filter { v in
            // An invitation whose send began before the end was in flight: the history check judged it.
            !(v.requirementID == "CALLX-EXP-2" && v.captures.first.map(inFlight.contains) == true)
        }
        return violations.map { v in
            let callId =
                v.captures.first.flatMap { bySequence[$0] }.flatMap {
                    PushMatchDocument.callx($0)?["callId"]?.stringValue
                }
                ?? v.events.first.flatMap { own.indices.contains($0) ? own[$0].json["callId"]?.stringValue : nil }
            return LoadInvariantFinding(
                requirementID: v.requirementID, level: v.level ?? .should, callId: callId, message: v.description)
        }
    }

    /// Push latency: an invitation from its call's first create; any other push (a stop signal) from the
    /// earliest request that answered or ended its call and was sent before the push arrived.
    static func pushLatency(_ h: LoadHistory) -> [LatencyFigures] {
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
        return [
            LatencyFigures(name: "invitation (from create)", values: invitations),
            LatencyFigures(name: "stop signal (from answer/end)", values: others),
        ].compactMap { $0 }
    }
}
