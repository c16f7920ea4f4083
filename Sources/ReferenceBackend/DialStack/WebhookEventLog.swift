import Synchronization

/// The IDs of webhook events already handled, so a redelivery (webhooks arrive at least once) does
/// not ring again. Remembered for `retentionMs`, and at most `capacity` of them (the oldest go first).
public final class WebhookEventLog: Sendable {
    private struct State {
        var seenAtMs: [String: Int64] = [:]
        var order: [(id: String, atMs: Int64)] = []
        var start = 0
    }

    public let retentionMs: Int64
    public let capacity: Int
    private let state = Mutex(State())

    public init(retentionMs: Int64, capacity: Int = 100_000) {
        self.retentionMs = retentionMs
        self.capacity = capacity
    }

    /// Records `id` at `nowMs`; true the first time, false for a redelivery. Atomic: of two
    /// deliveries of one event arriving together, exactly one is first.
    public func isFirstDelivery(of id: String, nowMs: Int64) -> Bool {
        state.withLock { state in
            forgetOld(&state, nowMs: nowMs)
            if state.seenAtMs[id] != nil { return false }
            state.seenAtMs[id] = nowMs
            state.order.append((id, nowMs))
            return true
        }
    }

    private func forgetOld(_ state: inout State, nowMs: Int64) {
        while state.start < state.order.count {
            let oldest = state.order[state.start]
            guard nowMs - oldest.atMs > retentionMs || state.order.count - state.start >= capacity else { break }
            state.seenAtMs[oldest.id] = nil
            state.start += 1
        }
        // Compacted now and then rather than on every removal.
        if state.start > 1024 && state.start * 2 > state.order.count {
            state.order.removeFirst(state.start)
            state.start = 0
        }
    }
}
