/// Holds back the HTTP/1.1 responses of a race until every request of the race has gone out.
///
/// Without it a fast server can answer one racing request before libcurl has sent the next, and the
/// next then reuses that connection: it leaves after the first answer, and the race becomes a
/// sequence. A held response keeps its connection busy, so every request leaves on its own connection.
/// HTTP/2 responses are never held: the requests share a connection and cannot take each other's.
final class ClientRaceGate: @unchecked Sendable {
    // @unchecked: made on the caller's thread, then used only on the loop thread (handed over with
    // the batch through the inbox Mutex).
    private var unsent: Int
    private var held: [ClientTransfer] = []

    init(count: Int) { unsent = count }

    /// True once every request has gone out (or finished without going out).
    var isOpen: Bool { unsent <= 0 }

    /// One request went out, or finished without going out. Called once per transfer.
    func requestLeft() { unsent -= 1 }

    /// Keeps a paused transfer until the gate opens.
    func hold(_ transfer: ClientTransfer) { held.append(transfer) }

    /// Drops a transfer that finished while held.
    func forget(_ transfer: ClientTransfer) { held.removeAll { $0 === transfer } }

    /// The held transfers, to be resumed; the gate keeps none afterwards.
    func release() -> [ClientTransfer] {
        defer { held.removeAll() }
        return held
    }
}
