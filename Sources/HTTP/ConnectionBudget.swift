import Synchronization

/// How many connections a listener holds, against its `HTTPServer.Configuration.maxConnections`;
/// shared by the listener's loops.
final class ConnectionBudget: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a place for a new connection; false when the listener is full.
    func take() -> Bool {
        if open.add(1, ordering: .relaxed).newValue <= limit { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    /// Gives back the place of a closed connection.
    func release() { open.subtract(1, ordering: .relaxed) }
}
