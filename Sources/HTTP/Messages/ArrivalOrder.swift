import Synchronization

/// One process-wide order of what the servers read and what their handlers decide, finer than any clock: a
/// request's `arrivalOrder` is taken when the bytes that completed it were read, a mock's decision on it
/// (`Capture.decidedOrder`) when it was recorded, just before its answer was written. A request whose
/// arrival comes before a decision arrived before that answer could have been sent, whatever their
/// milliseconds say.
///
/// ```swift
/// let arrived = ArrivalOrder.next()   // the server, on reading a request
/// let decided = ArrivalOrder.next()   // a mock, on recording another's answer
/// arrived < decided                   // the first came in before the second's answer left
/// ```
public enum ArrivalOrder {
    private static let counter = Atomic<UInt64>(0)

    /// The next position (from 1).
    public static func next() -> UInt64 { counter.add(1, ordering: .sequentiallyConsistent).newValue }
}
