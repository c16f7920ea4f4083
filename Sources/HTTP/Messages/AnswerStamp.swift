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
/// A stamp made `awaitingRead` (a refusal, which tells the client a token is dead) also learns when the client
/// had read the answer, on HTTP/2: right after writing it the connection sends a PING, and the client's PING ACK
/// (RFC 9113 §6.7: a client acknowledges in order, after what came before) marks `readOrder`. A request on the same
/// connection that arrived before that ACK was sent before its client had the answer. A client that never
/// acknowledges (or an HTTP/1.1 connection) leaves `readOrder` at 0: only the write counts.
///
/// ```swift
/// let stamp = AnswerStamp()
/// var response = HTTPResponse(status: 410)
/// response.sentStamp = stamp
/// // … the event loop writes the answer …
/// stamp.order   // its position in ArrivalOrder, 0 while unsent
///
/// let refusal = AnswerStamp(awaitingRead: true)
/// // … written, then the client's PING ACK comes back …
/// refusal.readOrder   // its position when the client had read it, 0 until then
/// ```
public final class AnswerStamp: Sendable {
    private let position = Atomic<UInt64>(0)
    private let readPosition = Atomic<UInt64>(0)
    /// The connection asks its HTTP/2 client to acknowledge having read this answer (a PING after it).
    public let awaitingRead: Bool

    public init(awaitingRead: Bool = false) { self.awaitingRead = awaitingRead }

    /// The answer's position in `ArrivalOrder` when its bytes were written out; 0 while it has not been.
    public var order: UInt64 { position.load(ordering: .sequentiallyConsistent) }

    /// Takes the next position in `ArrivalOrder` for the answer, once: later calls keep the first. The server's
    /// connection calls it; a test playing the connection may too.
    public func markSent() {
        guard order == 0 else { return }
        position.store(ArrivalOrder.next(), ordering: .sequentiallyConsistent)
    }

    /// The position in `ArrivalOrder` when the client's acknowledgement of a PING sent after this answer came in,
    /// on the connection it was written to; 0 while none has (or never: not `awaitingRead`, HTTP/1.1, a client
    /// that does not acknowledge).
    public var readOrder: UInt64 { readPosition.load(ordering: .sequentiallyConsistent) }

    /// Takes the next position in `ArrivalOrder` as the moment the client had read the answer, once. The
    /// server's connection calls it on the PING ACK; a test playing the connection may too.
    public func markRead() {
        guard readOrder == 0 else { return }
        readPosition.store(ArrivalOrder.next(), ordering: .sequentiallyConsistent)
    }
}
