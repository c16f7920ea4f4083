import Synchronization

extension PushWorker {
    // MARK: Running without head-of-line blocking

    /// Like `run()`, but a slow provider never holds up other pushes: each claimed push is sent
    /// and recorded on its own task, up to `maxInFlight` at once, while the loop keeps claiming
    /// what falls due. What `ReferenceBackendServer` runs. Cancelling stops the loop and the
    /// sends in flight (their jobs go back to the queue for a retry).
    public func runPipelined(maxInFlight: Int = 256) async {
        let inFlight = InFlightCount()
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
                        let (answered, outcome) = await self.send(push)
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
            group.cancelAll()
        }
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
