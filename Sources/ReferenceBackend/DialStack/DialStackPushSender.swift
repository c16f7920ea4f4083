import HTTP
import JSON
import Synchronization

/// Sends the wake-up pushes of one event to its devices, in parallel and in the background (the
/// webhook is answered at once; DialStack should not wait on APNs and FCM), through the same
/// `PushTransport` as the Callx reference's outbox (`ProviderPushTransport`: the cached provider
/// token and OAuth token) and with its retry rules: 429, 5xx and no answer are retried with
/// `PushRetryPolicy`'s backoff or the provider's `Retry-After`, but never past the wake window (a
/// push after the call gave up would ring for nothing); dead tokens are dropped.
public final class DialStackPushSender: Sendable {
    public let transport: any PushTransport
    public let builder: DialStackPushBuilder
    public let policy: PushRetryPolicy
    public let tokens: DialStackTokenStore
    let configuration: DialStackConfiguration
    let clock: MillisecondClock
    let log: BackendLog?
    private let state = Mutex(State())

    private struct State {
        var running: [Int64: Task<Void, Never>] = [:]
        var nextID: Int64 = 0
        var stopped = false
    }

    init(
        transport: any PushTransport, builder: DialStackPushBuilder, policy: PushRetryPolicy,
        tokens: DialStackTokenStore,
        configuration: DialStackConfiguration, clock: @escaping MillisecondClock, log: BackendLog?
    ) {
        self.transport = transport
        self.builder = builder
        self.policy = policy
        self.tokens = tokens
        self.configuration = configuration
        self.clock = clock
        self.log = log
    }

    /// Starts waking `devices` for `event`, received at `receivedAtMs`; returns at once, with the task that ends
    /// when every device's push is accepted, refused or given up (nil when none starts).
    @discardableResult
    func wake(_ devices: [PushRegistration], for event: DialStackWebhookEvent, receivedAtMs: Int64) -> Task<
        Void, Never
    >? {
        guard !devices.isEmpty else { return nil }
        return state.withLock { state -> Task<Void, Never>? in
            guard !state.stopped else { return nil }
            let id = state.nextID
            state.nextID += 1
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    for (i, device) in devices.enumerated() {
                        group.addTask {
                            await self.deliver(
                                to: device, event: event, receivedAtMs: receivedAtMs, sequence: id * 1000 + Int64(i))
                        }
                    }
                }
                _ = self.state.withLock { $0.running.removeValue(forKey: id) }
            }
            state.running[id] = task
            return task
        }
    }

    /// Returns once every push started so far is accepted, refused or given up.
    public func waitUntilIdle() async {
        while true {
            let running = state.withLock { Array($0.running.values) }
            if running.isEmpty { return }
            for task in running { await task.value }
        }
    }

    /// Cancels the pushes in flight and waits for them; no new ones start.
    func stop() async {
        let running = state.withLock { state in
            state.stopped = true
            return Array(state.running.values)
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    // MARK: One device

    /// Sends one device's push, retrying temporary failures while the wake window lasts.
    func deliver(to device: PushRegistration, event: DialStackWebhookEvent, receivedAtMs: Int64, sequence: Int64) async
    {
        let deadlineMs = receivedAtMs + configuration.wakeWindowSeconds * 1000
        if configuration.defects.contains(.slowPush) {
            try? await Task.sleep(for: .milliseconds(configuration.slowPushDelayMs))
        }
        if configuration.defects.contains(.slowAnswer) {
            try? await Task.sleep(for: .milliseconds(configuration.slowAnswerDelayMs))
        }
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            let request = builder.request(for: device, data: event.data, nowMs: clock(), sequence: sequence)
            let outcome: PushOutcome
            var status: Int?
            do {
                let response = try await transport.send(request)
                status = response.status
                outcome = PushOutcome.classify(response, kind: device.kind)
            } catch {
                outcome = .noResponse(error)
            }
            var next: Int64?
            switch outcome {
            case .accepted, .failed: break
            case .deadToken: tokens.drop(kind: device.kind, token: device.token)
            case .retry(let retryAfterMs, _):
                let at = clock() + (retryAfterMs ?? policy.backoffMs(afterAttempts: attempt))
                if attempt < policy.maxAttempts && at < deadlineMs { next = at }
            }
            logAttempt(device, event: event, attempt: attempt, status: status, outcome: outcome, retryAt: next)
            guard let next else { return }
            try? await Task.sleep(for: .milliseconds(max(next - clock(), 0)))
        }
    }

    /// One line per attempt: event, call, user, installation, what the provider said. Never the token,
    /// the payload or the webhook secret.
    private func logAttempt(
        _ device: PushRegistration, event: DialStackWebhookEvent, attempt: Int, status: Int?, outcome: PushOutcome,
        retryAt: Int64?
    ) {
        guard let log else { return }
        var line =
            "wake-up push event \(event.id ?? "-") call \(event.callId ?? "-") user \(device.userId)"
            + " via \(device.kind.rawValue) installation \(device.installationId) attempt \(attempt)"
            + " → \(status.map(String.init) ?? "no answer") \(outcome.logName)"
        if case .retry = outcome { line += retryAt == nil ? ", giving up (wake window over or attempts used)" : "" }
        if case .deadToken = outcome { line += ", token dropped" }
        log.write(line)
    }
}
