import HTTP

/// Retry and batching limits of the push worker.
public struct PushRetryPolicy: Sendable {
    /// Jobs claimed per round.
    public var batchSize: Int
    /// How long a claimed job stays claimed; a worker that died mid-send loses it after this.
    public var leaseMs: Int64
    /// Attempts before giving up (each attempt counts when claimed).
    public var maxAttempts: Int
    /// First retry delay without `Retry-After`; doubles per attempt up to `maxBackoffMs`.
    public var initialBackoffMs: Int64
    public var maxBackoffMs: Int64
    /// The longest sleep between rounds; the worker wakes earlier when work is committed or falls due.
    public var idlePollMs: Int64

    public init(
        batchSize: Int = 64, leaseMs: Int64 = 30_000, maxAttempts: Int = 10, initialBackoffMs: Int64 = 1_000,
        maxBackoffMs: Int64 = 30_000, idlePollMs: Int64 = 1_000
    ) {
        self.batchSize = batchSize
        self.leaseMs = leaseMs
        self.maxAttempts = maxAttempts
        self.initialBackoffMs = initialBackoffMs
        self.maxBackoffMs = maxBackoffMs
        self.idlePollMs = idlePollMs
    }

    /// The delay before attempt `attempts + 1` when the provider gave no `Retry-After`.
    public func backoffMs(afterAttempts attempts: Int) -> Int64 {
        let shift = min(max(attempts - 1, 0), 20)
        return min(initialBackoffMs << Int64(shift), maxBackoffMs)
    }
}

/// What one round of the worker did.
public struct PushWorkerReport: Sendable, Equatable {
    /// Requests handed to the transport.
    public var sent = 0
    public var accepted = 0
    public var retried = 0
    /// Jobs dropped with their dead token.
    public var droppedTokens = 0
    public var failed = 0
    /// Jobs not sent: call answered/ended, or past validity.
    public var skipped = 0

    public init() {}
}

/// Sends the outbox: claims due jobs, builds each request at send time, hands it to the
/// transport and records the outcome (retry with backoff while valid, drop dead tokens).
public final class PushWorker: Sendable {
    public let service: CallService
    public let transport: any PushTransport
    public let builder: PushMessageBuilder
    public let policy: PushRetryPolicy
    /// Where each push attempt is logged, if anywhere.
    public let log: BackendLog?

    public init(
        service: CallService, transport: any PushTransport, settings: PushMessageSettings,
        policy: PushRetryPolicy = PushRetryPolicy(), log: BackendLog? = nil
    ) {
        self.service = service
        self.transport = transport
        self.builder = PushMessageBuilder(settings: settings, defects: service.configuration.defects)
        self.policy = policy
        self.log = log
    }

    private var defects: Set<CallxDefect> { service.configuration.defects }

    // MARK: Running

    /// Expires due calls and sends due pushes until the task is cancelled. Sleeps until the
    /// next job or deadline falls due, a change is committed, or `idlePollMs` passes.
    public func run() async {
        var lastPurgeMs: Int64 = 0
        while !Task.isCancelled {
            if service.clock() - lastPurgeMs >= 60_000 {
                try? service.purgeHistory()
                lastPurgeMs = service.clock()
            }
            _ = try? service.expireDueCalls()
            let report = await runOnce()
            if report.sent > 0 || report.skipped > 0 { continue }
            var sleepMs = policy.idlePollMs
            if let next = try? service.store.transaction({ tx in try tx.nextWakeAtMs() }) {
                sleepMs = min(max(next - service.clock(), 0), policy.idlePollMs)
            }
            if sleepMs > 0 { await service.outboxSignal.wait(timeoutMs: sleepMs) }
        }
    }

    /// One round: claims what is due now, sends it concurrently, records the outcomes.
    @discardableResult
    public func runOnce() async -> PushWorkerReport {
        var report = PushWorkerReport()
        let claimed: [ClaimedPush]
        do { claimed = try claimDueJobs(report: &report) } catch { return report }
        let results = await withTaskGroup(of: (ClaimedPush, PushOutcome).self) { group in
            for push in claimed {
                group.addTask {
                    do {
                        let response = try await self.transport.send(push.request)
                        var answered = push
                        answered.status = response.status
                        return (answered, PushOutcome.classify(response, kind: push.job.kind))
                    } catch {
                        return (push, .noResponse(error))
                    }
                }
            }
            var results: [(ClaimedPush, PushOutcome)] = []
            for await result in group { results.append(result) }
            return results
        }
        report.sent = claimed.count
        for (push, outcome) in results {
            do { try record(outcome, for: push, report: &report) } catch { continue }
        }
        return report
    }

    // MARK: Claiming

    struct ClaimedPush: Sendable {
        var job: PushJob
        var request: PushRequest
        var status: Int?
    }

    func claimDueJobs(report: inout PushWorkerReport, limit: Int? = nil) throws -> [ClaimedPush] {
        let now = service.clock()
        let (claimed, skipped) = try service.store.transaction { tx -> ([ClaimedPush], Int) in
            var claimed: [ClaimedPush] = []
            var skipped = 0
            for job in try tx.dueJobs(nowMs: now, limit: limit ?? policy.batchSize) {
                if let reason = try reasonNotToSend(tx, job, nowMs: now) {
                    try tx.updateJob(job.jobId, status: reason.status, lastError: reason.message, nowMs: now)
                    skipped += 1
                    continue
                }
                guard let request = builder.request(for: job, nowMs: now) else {
                    try tx.updateJob(job.jobId, status: .expired, lastError: "validity ended", nowMs: now)
                    skipped += 1
                    continue
                }
                try tx.claimJob(job.jobId, leaseUntilMs: now + policy.leaseMs, nowMs: now)
                var sending = job
                sending.attempts += 1
                claimed.append(ClaimedPush(job: sending, request: request))
            }
            return (claimed, skipped)
        }
        report.skipped += skipped
        return claimed
    }

    /// Why a due job must not go out now, if it must not.
    private func reasonNotToSend(
        _ tx: StoreTransaction, _ job: PushJob, nowMs: Int64
    ) throws -> (status: PushJob.Status, message: String)? {
        // The defect keeps retrying what was already tried, whatever became of the call.
        if defects.contains(.retryAfterExpiry) && job.attempts > 0 { return nil }
        if nowMs >= job.validUntilMs { return (.expired, "the call's ring deadline passed") }
        if job.purpose == .invitation && !defects.contains(.inviteAfterCancel) {
            guard let call = try tx.call(job.callId), call.state == .ringing, nowMs < call.expiresAtMs else {
                return (.cancelled, "the call is no longer ringing")
            }
        }
        return nil
    }

    // MARK: Outcomes

    func record(_ outcome: PushOutcome, for push: ClaimedPush, report: inout PushWorkerReport) throws {
        let now = service.clock()
        let committed: PushJob.Status
        do {
            committed = try commit(outcome, for: push, report: &report, nowMs: now)
        } catch {
            logAttempt(push, outcome, committed: nil, error: error)
            throw error
        }
        // Logged only now: a crash before the commit sends the push again (at least once), and a
        // line saying "delivered" for a row still pending would claim what the outbox does not hold.
        logAttempt(push, outcome, committed: committed)
    }

    /// Records the outcome in the push's outbox row in one transaction; returns the row's new status.
    private func commit(
        _ outcome: PushOutcome, for push: ClaimedPush, report: inout PushWorkerReport, nowMs now: Int64
    ) throws -> PushJob.Status {
        let job = push.job
        return try service.store.transaction { tx -> PushJob.Status in
            if let status = push.status {
                try tx.updateJob(job.jobId, status: .sending, lastStatus: status, nowMs: now)
            }
            switch outcome {
            case .accepted:
                report.accepted += 1
                try tx.updateJob(job.jobId, status: .sent, nowMs: now)
                return .sent
            case .retry(let retryAfterMs, let reason):
                let next = now + (retryAfterMs ?? policy.backoffMs(afterAttempts: job.attempts))
                if defects.contains(.noRetry) || job.attempts >= policy.maxAttempts {
                    report.failed += 1
                    try tx.updateJob(job.jobId, status: .failed, lastError: reason, nowMs: now)
                    return .failed
                } else if next >= job.validUntilMs && !defects.contains(.retryAfterExpiry) {
                    // The next try would come after the call stopped ringing: never ring late.
                    report.failed += 1
                    try tx.updateJob(job.jobId, status: .expired, lastError: reason, nowMs: now)
                    return .expired
                } else {
                    report.retried += 1
                    try tx.updateJob(job.jobId, status: .pending, nextAttemptAtMs: next, lastError: reason, nowMs: now)
                    return .pending
                }
            case .deadToken(let reason):
                report.droppedTokens += 1
                if defects.contains(.keepDeadTokens) {
                    try tx.updateJob(job.jobId, status: .failed, lastError: reason, nowMs: now)
                    return .failed
                }
                try tx.updateJob(job.jobId, status: .dropped, lastError: reason, nowMs: now)
                try tx.deleteRegistration(installationId: job.installationId, kind: job.kind, token: job.token)
                try tx.cancelPendingPushes(kind: job.kind, token: job.token, nowMs: now)
                return .dropped
            case .failed(let reason):
                report.failed += 1
                try tx.updateJob(job.jobId, status: .failed, lastError: reason, nowMs: now)
                return .failed
            }
        }
    }
}

extension PushWorker {
    /// One log line per attempt: which job, call and installation, and what the provider said. The
    /// token and the payload stay out of it unless the `log-push-secrets` defect is on.
    ///
    /// Written once the outcome is committed to the outbox (`committed` is the row's new status), or
    /// when the commit failed (`committed` nil): the push may then go out again, since the outbox
    /// delivers at least once.
    func logAttempt(_ push: ClaimedPush, _ outcome: PushOutcome, committed: PushJob.Status?, error: (any Error)? = nil)
    {
        guard let log else { return }
        let job = push.job
        var line =
            "push job \(job.jobId) \(job.purpose.rawValue) via \(job.kind.rawValue) call \(job.callId)"
            + " installation \(job.installationId) attempt \(job.attempts) → \(push.status.map(String.init) ?? "no answer")"
            + " \(outcome.logName)"
        if let committed {
            line += ", committed as \(committed.rawValue)"
        } else {
            line += ", NOT committed (\(error.map { "\($0)" } ?? "unknown error")): the push may be sent again"
        }
        if defects.contains(.logPushSecrets) {
            line += " token=\(job.token) payload=" + String(decoding: push.request.body, as: UTF8.self)
        }
        log.write(line)
    }
}
