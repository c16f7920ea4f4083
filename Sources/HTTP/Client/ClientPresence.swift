import Synchronization

/// Whether the client of one connection still waits for its answers: set by the connection's loop,
/// read by handlers on other threads through `HTTPRequest.isAbandoned`.
///
/// One per connection (an allocation per connection, none per request): HTTP/2 requests share it and
/// find their own stream in `resetStreams`, which holds only streams reset while their handler ran.
final class ClientPresence: Sendable {
    /// The connection closed, or (HTTP/1.1) the client finished sending before every answer went out.
    private let gone = Atomic<Bool>(false)
    /// How many streams `resetStreams` holds, read without the lock on every check.
    private let resetCount = Atomic<Int>(0)
    private let resetStreams = Mutex<Set<Int32>>([])

    init() {}

    /// The client is gone: every request of the connection is abandoned.
    func markGone() { gone.store(true, ordering: .releasing) }

    /// The client reset HTTP/2 stream `id` before it was answered.
    func markReset(stream id: Int32) {
        resetStreams.withLock { set in
            if set.insert(id).inserted { resetCount.add(1, ordering: .releasing) }
        }
    }

    /// Stream `id` was answered (or its answer dropped): it needs no entry any more.
    func forget(stream id: Int32) {
        guard resetCount.load(ordering: .acquiring) > 0 else { return }
        resetStreams.withLock { set in
            if set.remove(id) != nil { resetCount.subtract(1, ordering: .releasing) }
        }
    }

    /// Whether the request on `stream` (nil for HTTP/1.1) has nobody waiting for its answer.
    func isAbandoned(stream: Int32?) -> Bool {
        if gone.load(ordering: .acquiring) { return true }
        guard let stream, resetCount.load(ordering: .acquiring) > 0 else { return false }
        return resetStreams.withLock { $0.contains(stream) }
    }
}
