import Synchronization

/// Transfers submitted together (one request, or all requests of a race) and the one callback that
/// receives their outcomes once every one has finished.
final class ClientBatch: @unchecked Sendable {
    // @unchecked: `outcomes` and `remaining` are touched only on the loop thread; `completion` is set
    // before the batch is submitted through the inbox Mutex; `cancelled` is atomic.
    let transfers: [ClientTransfer]
    private var outcomes: [ClientOutcome?]
    private var remaining: Int
    private let cancelled = Atomic<Bool>(false)
    var completion: (@Sendable ([ClientOutcome]) -> Void)?

    init(_ transfers: [ClientTransfer]) {
        self.transfers = transfers
        outcomes = Array(repeating: nil, count: transfers.count)
        remaining = transfers.count
    }

    /// True once the submitting task was cancelled; any thread.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the batch cancelled; any thread.
    func markCancelled() { cancelled.store(true, ordering: .releasing) }

    /// Records the outcome of transfer `index`; the last one calls `completion`.
    func finish(_ index: Int, _ outcome: ClientOutcome) {
        guard outcomes[index] == nil else { return }
        outcomes[index] = outcome
        remaining -= 1
        if remaining == 0 {
            let done = outcomes.map { $0! }
            let completion = self.completion
            self.completion = nil
            completion?(done)
        }
    }
}
