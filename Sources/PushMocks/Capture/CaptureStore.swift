/// The captures of a `CaptureLog` in arrival order, kept in fixed-size chunks.
///
/// Appending never moves earlier captures (a growing array copied the whole log each time it
/// doubled), and dropping the oldest at capacity costs nothing per capture (`removeFirst` on one
/// array shifted every capture, for every push once the log was full).
struct CaptureStore {
    static let chunkSize = 1024

    private var chunks: [[Capture]] = []
    /// Captures at the front of `chunks[0]` that were dropped; they go when their chunk does.
    private var head = 0
    /// How many captures are kept.
    private(set) var count = 0

    mutating func append(_ capture: consuming Capture) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            // The first chunk grows as needed (most logs stay small); once a log outgrows it, each new
            // chunk is allocated whole instead of copied through 1, 2, 4… 1,024 captures.
            var chunk: [Capture] = []
            if !chunks.isEmpty { chunk.reserveCapacity(Self.chunkSize) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(consume capture)
        count += 1
    }

    /// Drops the oldest `n` captures.
    ///
    /// A capture dropped from the middle of a chunk is freed at once (its slot keeps the shared
    /// placeholder): a full log drops one capture per capture recorded, and freeing a whole chunk's
    /// (a thousand captures and their strings) held the log's lock that long on every 1,024th push.
    mutating func removeFirst(_ n: Int) {
        var n = min(max(n, 0), count)
        count -= n
        while n > 0 {
            let available = chunks[0].count - head
            if n >= available {
                chunks.removeFirst()
                head = 0
                n -= available
            } else {
                for i in head..<head + n { chunks[0][i] = Capture.placeholder }
                head += n
                n = 0
            }
        }
        if count == 0 { removeAll() }
    }

    mutating func removeAll() {
        chunks = []
        head = 0
        count = 0
    }

    /// The first `limit` captures satisfying `predicate`, oldest first, and whether more satisfy it.
    func filter(limit: Int, _ predicate: (Capture) -> Bool) -> (captures: [Capture], more: Bool) {
        var out: [Capture] = []
        for (i, chunk) in chunks.enumerated() {
            for capture in chunk[(i == 0 ? head : 0)...] where predicate(capture) {
                if out.count == limit { return (out, true) }
                out.append(capture)
            }
        }
        return (out, false)
    }

    /// The captures satisfying `predicate`, oldest first.
    func filter(_ predicate: (Capture) throws -> Bool) rethrows -> [Capture] {
        var out: [Capture] = []
        for (i, chunk) in chunks.enumerated() {
            for capture in chunk[(i == 0 ? head : 0)...] where try predicate(capture) { out.append(capture) }
        }
        return out
    }
}
