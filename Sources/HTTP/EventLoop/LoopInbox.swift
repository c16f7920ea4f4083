import Glibc
import Synchronization

/// Work handed to a loop from other threads.
enum LoopMessage: Sendable {
    /// A handler's answer for request `token` (HTTP/1.1 sequence number or HTTP/2 stream ID) on a connection.
    case response(connectionID: UInt64, token: Int64, HTTPResponse)
    case stop
}

/// The cross-thread mailbox of one loop: a `Mutex`-guarded array plus an eventfd to wake `epoll_wait`.
final class LoopInbox: Sendable {
    private let items = Mutex<[LoopMessage]>([])
    let wakeFD: Int32

    init(wakeFD: Int32) { self.wakeFD = wakeFD }

    // The inbox outlives its loop while handler tasks still hold it: it owns the eventfd, so a
    // late answer never writes to a descriptor number that was closed and reused.
    deinit { close(wakeFD) }

    func post(_ message: LoopMessage) {
        let wasEmpty = items.withLock { list in
            let e = list.isEmpty
            list.append(message)
            return e
        }
        // Only the first message of a batch needs to wake the loop; it drains everything at once.
        if wasEmpty {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    func takeAll() -> [LoopMessage] {
        var drained: UInt64 = 0
        _ = read(wakeFD, &drained, 8)
        return items.withLock { list in
            let taken = list
            list = []
            return taken
        }
    }
}
