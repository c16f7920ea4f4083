import Synchronization

extension PushWorker {
    // MARK: Running without head-of-line blocking

    /// Like `run()`, but a slow provider never holds up other pushes: each claimed push is sent
    /// and recorded on its own task, up to `maxInFlight` at once, while the loop keeps claiming
    /// what falls due. What `ReferenceBackendServer` runs.
    ///
    /// Cancelling is a graceful stop: the loop claims nothing more, and the sends in flight finish and
    /// have their outcome recorded, for up to `stopGraceMs` (a push the provider accepted just before a
    /// restart is recorded as sent, not sent again after it). Sends still unanswered past that bound are
    /// cancelled: their jobs go back to the queue and are sent again (a provider hanging on a push must
    /// not stall the stop).
    public func runPipelined(maxInFlight: Int = 256, stopGraceMs: Int64 = 2_000) async {
        let inFlight = InFlightCount()
        let sends = InFlightSends()
        await withDiscardingTaskGroup { group in
            var lastPurgeMs: Int64 = 0
            while !Task.isCancelled {
                if service.clock() - lastPurgeMs >= 60_000 {
                    try? service.purgeHistory()
                    lastPurgeMs = service.clock()
                }
                _ = try? service.expireDueCalls()
                var report = PushWorkerReport()
                let room = maxInFlight - inFlight.value
                let claimed =
                    room > 0 ? ((try? claimDueJobs(report: &report, limit: min(room, policy.batchSize))) ?? []) : []
                for push in claimed {
                    inFlight.add(1)
                    group.addTask {
                        // Not a child of this task: stopping the loop leaves the send running (`stopGraceMs`).
                        let (answered, outcome) = await sends.run { await self.send(push) }
                        var ignored = PushWorkerReport()
                        try? self.record(outcome, for: answered, report: &ignored)
                        inFlight.add(-1)
                        // A retry may now be due sooner than the loop's sleep.
                        self.service.outboxSignal.notify()
                    }
                }
                if !claimed.isEmpty || report.skipped > 0 { continue }
                if room <= 0 {
                    // Full: a finishing send rings the signal.
                    await service.outboxSignal.wait(timeoutMs: policy.idlePollMs)
                    continue
                }
                var sleepMs = policy.idlePollMs
                if let next = try? service.store.transaction({ tx in try tx.nextWakeAtMs() }) {
                    sleepMs = min(max(next - service.clock(), 0), policy.idlePollMs)
                }
                if sleepMs > 0 { await service.outboxSignal.wait(timeoutMs: sleepMs) }
            }
            await finishSends(inFlight, sends, graceMs: stopGraceMs)
        }
    }

    /// Once the loop stopped: waits for the sends in flight to be answered and recorded (each rings the outbox
    /// signal), for up to `graceMs`, then cancels those still unanswered (their jobs go back to the queue).
    private func finishSends(_ inFlight: InFlightCount, _ sends: InFlightSends, graceMs: Int64) async {
        let deadline = ContinuousClock.now + .milliseconds(graceMs)
        while inFlight.value > 0 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            let (seconds, attoseconds) = left.components
            await service.outboxSignal.wait(timeoutMs: max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
        }
        sends.cancelAll()
    }

    /// Sends one claimed push and classifies the answer; no answer at all is retryable.
    func send(_ push: ClaimedPush) async -> (ClaimedPush, PushOutcome) {
        do {
            let response = try await transport.send(push.request)
            var answered = push
            answered.status = response.status
            return (answered, PushOutcome.classify(response, kind: push.job.kind))
        } catch {
            return (push, .noResponse(error))
        }
    }
}

/// How many pushes are being sent right now.
final class InFlightCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add(_ delta: Int) { count.withLock { $0 += delta } }
}

/// The sends in flight, each on a task of its own rather than a child of the worker's loop, so stopping the
/// loop does not cancel them (`PushWorker.runPipelined`); `cancelAll` cancels them, and any started after it.
final class InFlightSends: Sendable {
    private struct State {
        var tasks: [UInt64: Task<(PushWorker.ClaimedPush, PushOutcome), Never>] = [:]
        var next: UInt64 = 0
        var cancelled = false
    }
    private let state = Mutex(State())

    /// Runs `send` on a task of its own and returns its result.
    func run(_ send: @escaping @Sendable () async -> (PushWorker.ClaimedPush, PushOutcome)) async -> (
        PushWorker.ClaimedPush, PushOutcome
    ) {
        let task = Task { await send() }
        let id = state.withLock { state -> UInt64? in
            if state.cancelled { return nil }
            state.next += 1
            state.tasks[state.next] = task
            return state.next
        }
        if id == nil { task.cancel() }
        let result = await task.value
        if let id { _ = state.withLock { $0.tasks.removeValue(forKey: id) } }
        return result
    }

    /// Cancels every send in flight, and each one started from now on.
    func cancelAll() {
        let tasks = state.withLock { state in
            state.cancelled = true
            defer { state.tasks.removeAll() }
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }
}
