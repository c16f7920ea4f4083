import HTTP
import Synchronization

/// Sends the push service's queued deliveries through a `PushTransport` (`ProviderPushTransport`:
/// the cached APNs provider token and Google access token) and settles them: 2xx → successful; a
/// dead token (APNs 410 / BadDeviceToken, FCM UNREGISTERED) → failed, and the token forgotten (a dead
/// VoIP token alone: the device keeps its alert token); 429, 5xx and no answer are retried with
/// `PushRetryPolicy`'s backoff or the provider's `Retry-After`, but not past a call's ring; other
/// refusals and retries given up → errored. An incoming-call push still queued when its ring ends
/// (`timeout`) is never sent: the claim settles it failed.
public final class DeliveryWorker: Sendable {
    let store: PushServiceStore
    let transport: any PushTransport
    let policy: PushRetryPolicy
    let defects: Set<PushServiceDefect>
    let clock: MillisecondClock
    let log: BackendLog?
    let signal = OutboxSignal()
    private let state = Mutex(State())

    private struct State {
        var loop: Task<Void, Never>?
        /// Sends in flight, by delivery ID: a slow provider answer holds up only its own delivery.
        var sending: [Int64: Task<Void, Never>] = [:]
        var stopped = false
    }

    init(
        store: PushServiceStore, transport: any PushTransport, policy: PushRetryPolicy,
        defects: Set<PushServiceDefect>, clock: @escaping MillisecondClock, log: BackendLog?
    ) {
        self.store = store
        self.transport = transport
        self.policy = policy
        self.defects = defects
        self.clock = clock
        self.log = log
    }

    /// Starts the loop (once).
    func start() {
        state.withLock { state in
            guard state.loop == nil, !state.stopped else { return }
            state.loop = Task { await self.run() }
        }
    }

    /// Stops the loop and cancels the sends in flight; their deliveries stay queued (sent again after
    /// their lease, by the next run on the same database).
    func stop() async {
        let (loop, sending) = state.withLock { state in
            state.stopped = true
            return (state.loop, Array(state.sending.values))
        }
        loop?.cancel()
        signal.notify()
        await loop?.value
        for task in sending { task.cancel() }
        for task in sending { await task.value }
    }

    /// Claims what is due, up to `batchSize` sends in flight, and sleeps until the next is due or
    /// new work is queued.
    private func run() async {
        while !Task.isCancelled {
            let free = policy.batchSize - state.withLock { $0.sending.count }
            let claim =
                free > 0
                ? ((try? store.claimDue(
                    nowMs: clock(), leaseMs: policy.leaseMs, limit: free,
                    keepingRingEnded: defects.contains(.ignoreCallTimeout))) ?? .init()) : .init()
            for dropped in claim.dropped {
                log?.write(
                    "push notification \(dropped.notificationId) device \(dropped.deviceId) via \(dropped.channel)"
                        + " → failed: the call stopped ringing (its timeout passed) before the push was sent")
            }
            let due = claim.due
            for delivery in due { launch(delivery) }
            if !due.isEmpty { continue }
            let next = (try? store.nextDueMs()) ?? nil
            let wait = next.map { max($0 - clock(), 0) } ?? policy.idlePollMs
            await signal.wait(timeoutMs: max(min(wait, policy.idlePollMs), 1))
        }
    }

    private func launch(_ delivery: ServiceDelivery) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.sending[delivery.id] = Task {
                await self.send(delivery)
                _ = self.state.withLock { $0.sending.removeValue(forKey: delivery.id) }
                self.signal.notify()
            }
        }
    }

    // MARK: One delivery

    private func send(_ delivery: ServiceDelivery) async {
        let outcome: PushOutcome
        var status: Int?
        do {
            let response = try await transport.send(delivery.request)
            status = response.status
            outcome = PushOutcome.classify(response, kind: delivery.channel.kind)
        } catch {
            outcome = .noResponse(error)
        }
        let now = clock()
        var note = ""
        do {
            switch outcome {
            case .accepted:
                try store.settle(delivery, as: .successful, reason: nil, nowMs: now)
            case .deadToken(let reason):
                note = try forgetDeadToken(delivery)
                try store.settle(delivery, as: .failed, reason: reason, nowMs: now)
            case .failed(let reason):
                try store.settle(delivery, as: .errored, reason: reason, nowMs: now)
            case .retry(let retryAfterMs, let reason):
                let at = now + (retryAfterMs ?? policy.backoffMs(afterAttempts: delivery.attempts))
                // Not past the call's ring (`ignore-call-timeout` retries anyway, and the claim then sends it).
                let ringEnd = defects.contains(.ignoreCallTimeout) ? nil : delivery.giveUpAtMs
                if delivery.attempts < policy.maxAttempts && at < (ringEnd ?? Int64.max) {
                    try store.retry(delivery, atMs: at, reason: reason)
                    signal.notify()
                } else {
                    note = ", giving up"
                    try store.settle(delivery, as: .errored, reason: reason, nowMs: now)
                }
            }
        } catch {
            log?.write("push delivery \(delivery.id): cannot record the outcome: \(error)")
        }
        // Never the token (it is in the path) or the payload.
        log?.write(
            "push notification \(delivery.notificationId) device \(delivery.deviceId) via \(delivery.channel.rawValue)"
                + " attempt \(delivery.attempts) → \(status.map(String.init) ?? "no answer") \(outcome.logName)\(note)")
    }

    /// What a dead token costs the device: a VoIP token alone (the device keeps its alert token and
    /// normal notifications), or the device itself when its alert or FCM token died.
    private func forgetDeadToken(_ delivery: ServiceDelivery) throws -> String {
        switch delivery.channel {
        case .voip where defects.contains(.keepDeadVoIPToken):
            return ", VoIP token kept"
        case .voip where !defects.contains(.dropDeviceOnDeadVoIP):
            let token = String(delivery.request.path.dropFirst("/3/device/".count))
            try store.dropVoIPToken(deviceId: delivery.deviceId, token: token)
            return ", VoIP token deleted"
        default:
            try store.dropDevice(deviceId: delivery.deviceId)
            return ", device deleted"
        }
    }
}
