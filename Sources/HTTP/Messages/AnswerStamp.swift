import Synchronization

/// Where in `ArrivalOrder` an answer's bytes were written to its connection: the moment the client could
/// first know it. A handler that answers off the event loop (a mock under a fault plan, the FCM mock) is
/// decided on another thread while the loop reads on, so a request the loop reads between the decision
/// and the write came in before the answer left; the decision's own position would place it after.
///
/// A handler puts a stamp on the response (`HTTPResponse.sentStamp`) and keeps it; the connection marks it
/// once the answer has been written out. Until then (and for good when the connection closed first) the
/// stamp reads 0.
///
/// ```swift
/// let stamp = AnswerStamp()
/// var response = HTTPResponse(status: 410)
/// response.sentStamp = stamp
/// // … the event loop writes the answer …
/// stamp.order   // its position in ArrivalOrder, 0 while unsent
/// ```
public final class AnswerStamp: Sendable {
    private let position = Atomic<UInt64>(0)

    public init() {}

    /// The answer's position in `ArrivalOrder` when its bytes were written out; 0 while it has not been.
    public var order: UInt64 { position.load(ordering: .sequentiallyConsistent) }

    /// Takes the next position in `ArrivalOrder` for the answer, once: later calls keep the first. The server's
    /// connection calls it; a test playing the connection may too.
    public func markSent() {
        guard order == 0 else { return }
        position.store(ArrivalOrder.next(), ordering: .sequentiallyConsistent)
    }
}
