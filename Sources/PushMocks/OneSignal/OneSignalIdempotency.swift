import HTTP
import Synchronization

/// OneSignal's idempotent create: a notification whose `idempotency_key` (older name `external_id`) repeats one
/// the same app saw within 30 days gets the first request's answer again and sends nothing (the official SDKs add
/// a key and retry with it). Keys are remembered per app; the book keeps at most `capacity` keys, forgetting the
/// oldest first, so no number of distinct keys a peer sends can exhaust the mock.
final class OneSignalIdempotency: Sendable {
    /// How long OneSignal honours a key.
    static let windowMs: Int64 = 30 * 24 * 3600 * 1000

    private struct Entry {
        var answer: HTTPResponse
        var atMs: Int64
    }

    private struct Book {
        var entries: [String: Entry] = [:]
        /// Keys in the order they were first seen, for forgetting the oldest.
        var order: [String] = []
        var head = 0
    }

    private let book = Mutex(Book())
    let capacity: Int

    init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    /// The answer a request with `key` in app `appID` got within the window, if any.
    func earlier(appID: String, key: String, nowMs: Int64) -> HTTPResponse? {
        let k = appID + "\u{0}" + key
        return book.withLock { b in
            guard let e = b.entries[k], nowMs - e.atMs < Self.windowMs else { return nil }
            return e.answer
        }
    }

    /// Remembers the answer to the first request with `key` in app `appID`.
    func remember(appID: String, key: String, answer: HTTPResponse, nowMs: Int64) {
        let k = appID + "\u{0}" + key
        book.withLock { b in
            if b.entries[k] == nil { b.order.append(k) }
            b.entries[k] = Entry(answer: answer, atMs: nowMs)
            while b.entries.count > capacity, b.head < b.order.count {
                b.entries.removeValue(forKey: b.order[b.head])
                b.head += 1
            }
            // Drop forgotten keys from the front now and then, so `order` stays as long as the book.
            if b.head > capacity {
                b.order.removeFirst(b.head)
                b.head = 0
            }
        }
    }
}
