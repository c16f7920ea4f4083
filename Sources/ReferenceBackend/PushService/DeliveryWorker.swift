import HTTP
import Synchronization

/// Sends the push service's queued deliveries through a `PushTransport` (`ProviderPushTransport`:
/// the cached APNs provider token and Google access token) and settles them: 2xx → successful; a
/// dead token (APNs 410 / BadDeviceToken, FCM UNREGISTERED) → failed, and the token forgotten (a dead
/// VoIP token alone: the device keeps its alert token); 429, 5xx and no answer are retried with
/// `PushRetryPolicy`'s backoff or the provider's `Retry-After`, but not past a call's ring; other
/// refusals and retries given up → errored.
public final class DeliveryWorker: Sendable {
    let store: PushServiceStore
    let transport: any PushTransport
    let policy: PushRetryPolicy
    let defects: Set<PushServiceDefect>
    let clock: MillisecondClock
    let log: BackendLog?
    let signal = OutboxSignal()
    private let task = Mutex<Task<Void, Never>?>(nil)

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
        task.withLock { task in
            guard task == nil else { return }
            task = Task { await self.run() }
        }
    }

    /// Stops the loop; deliveries in flight are abandoned to the queue (sent again after their lease).
    func stop() async {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
        signal.notify()
        await running?.value
    }

    private func run() async {
        while !Task.isCancelled {
            let due = (try? store.claimDue(nowMs: clock(), leaseMs: policy.leaseMs, limit: policy.batchSize)) ?? []
            if due.isEmpty {
                let next = (try? store.nextDueMs()) ?? nil
                let wait = next.map { max($0 - clock(), 0) } ?? policy.idlePollMs
                await signal.wait(timeoutMs: min(wait, policy.idlePollMs))
                continue
            }
            await withTaskGroup(of: Void.self) { group in
                for delivery in due { group.addTask { await self.send(delivery) } }
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
                if delivery.attempts < policy.maxAttempts && at < (delivery.giveUpAtMs ?? Int64.max) {
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
