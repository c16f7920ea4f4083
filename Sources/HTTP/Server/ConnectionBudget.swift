import Synchronization

/// How many connections a listener holds, against its cap (`HTTPServer.Configuration.maxConnections`,
/// at most half of its `ConnectionPool`) and the places its pool has left; shared by the listener's loops.
final class ConnectionBudget: Sendable {
    /// The most connections the listener holds.
    let limit: Int
    /// The first `reserved` connections use the listener's own places in the pool; the others shared ones.
    let reserved: Int
    let pool: ConnectionPool
    private let open = Mutex<Int>(0)

    init(limit: Int, reserved: Int = 0, pool: ConnectionPool = .process) {
        self.pool = pool
        self.limit = max(1, min(limit, pool.listenerShare))
        self.reserved = pool.reserve(max(0, reserved))
    }

    deinit { pool.unreserve(reserved) }

    /// Takes a place for a new connection; false when the listener is full or the pool has no shared
    /// place left.
    func take() -> Bool {
        open.withLock { open in
            guard open < limit, open < reserved || pool.takeShared() else { return false }
            open += 1
            return true
        }
    }

    /// Gives back the place of a closed connection.
    func release() {
        open.withLock { open in
            open -= 1
            if open >= reserved { pool.releaseShared() }
        }
    }
}

/// The connection places a process's listeners share: three quarters of its descriptor limit
/// (`DescriptorLimit.current`), the rest kept for files, clients and child processes. A listener holds at
/// most half of them (`listenerShare`), so one listener's flood leaves the others room; places a listener
/// reserves (`HTTPServer.Configuration.reservedConnections`; an eighth of the pool for all listeners together,
/// first come first served) no other listener takes.
public final class ConnectionPool: Sendable {
    /// The process's pool, which every server uses unless configured with its own.
    public static let process = ConnectionPool(capacity: DescriptorLimit.current / 4 * 3)

    /// How many connections the listeners hold together.
    public let capacity: Int
    /// The most connections one listener holds: half the pool.
    public var listenerShare: Int { max(1, capacity / 2) }

    private struct Places {
        /// Connections on shared places.
        var shared = 0
        /// Places set aside by listeners.
        var reserved = 0
    }

    private let places = Mutex(Places())

    /// A pool of `capacity` places (tests make small ones).
    public init(capacity: Int) { self.capacity = max(2, capacity) }

    /// Sets aside up to `count` places, within an eighth of the pool for all reservations together (a test
    /// process runs many mock stacks, each reserving places for its control API: the shared places must
    /// not go to them); returns how many.
    fileprivate func reserve(_ count: Int) -> Int {
        places.withLock { p in
            let n = max(0, min(count, capacity / 8 - p.reserved))
            p.reserved += n
            return n
        }
    }

    fileprivate func unreserve(_ count: Int) { places.withLock { $0.reserved -= count } }

    fileprivate func takeShared() -> Bool {
        places.withLock { p in
            guard p.shared + p.reserved < capacity else { return false }
            p.shared += 1
            return true
        }
    }

    fileprivate func releaseShared() { places.withLock { $0.shared -= 1 } }
}
