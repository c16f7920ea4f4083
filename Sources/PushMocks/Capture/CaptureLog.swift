import HTTP
import Synchronization

/// The shared record of every request every mock received, accepted or rejected, in arrival order.
///
/// Tests and the conformance engine query it, clear it between scenarios, and wait on it
/// (`waitFor`) instead of polling.
public final class CaptureLog: Sendable {
    struct Waiter {
        let id: UInt64
        let count: Int
        let predicate: @Sendable (Capture) -> Bool
        var matches: [Capture]
        let continuation: CheckedContinuation<[Capture], Never>
        var timeoutTask: Task<Void, Never>?
    }

    struct State {
        var captures = CaptureStore()
        var nextSequence = 1
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 1
        /// Captures dropped because the log was full.
        var evicted = 0
        /// Where captures go instead of the log (`divert(to:)`).
        var consumer: (@Sendable (Capture) -> Void)?
    }

    private let state = Mutex(State())
    /// Streams the listeners refused (`StreamRefusal`): no request, so no capture.
    let refusalStore = StreamRefusals()
    /// The most captures kept; the oldest are dropped beyond it (a runaway backend must not exhaust memory).
    public let capacity: Int

    /// An empty log keeping at most `capacity` captures.
    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    // MARK: Recording

    /// Appends `capture`, giving it the next sequence number, wakes any waiter it satisfies and
    /// returns it as stored.
    @discardableResult
    public func record(_ capture: Capture) -> Capture {
        var stored = capture
        stored.sequence = append(capture)
        return stored
    }

    /// `record` without handing the capture back: returns its sequence number.
    func append(_ capture: consuming Capture) -> Int {
        var taken = capture
        return append(taking: &taken)
    }

    /// `record` for a capture the caller is done with: takes it (leaving `Capture.placeholder`) and
    /// returns its sequence number.
    ///
    /// Taking rather than sharing the caller's capture lets the log number it without copying its
    /// storage (a capture is copied on write while two values hold it).
    func append(taking capture: inout Capture) -> Int {
        var pending: Capture? = Capture.placeholder
        swap(&pending!, &capture)
        var ready: [(CheckedContinuation<[Capture], Never>, [Capture], Task<Void, Never>?)] = []
        var diverted: (consumer: @Sendable (Capture) -> Void, capture: Capture)?
        let sequence = state.withLock { state -> Int in
            pending!.sequence = state.nextSequence
            pending!.decidedOrder = ArrivalOrder.next()
            let sequence = state.nextSequence
            state.nextSequence += 1
            if !state.waiters.isEmpty {
                var remaining: [Waiter] = []
                for var waiter in state.waiters {
                    if waiter.predicate(pending!) { waiter.matches.append(pending!) }
                    if waiter.matches.count >= waiter.count {
                        ready.append((waiter.continuation, waiter.matches, waiter.timeoutTask))
                    } else {
                        remaining.append(waiter)
                    }
                }
                state.waiters = remaining
            }
            if let consumer = state.consumer {
                diverted = (consumer, pending.take()!)
                return sequence
            }
            state.captures.append(pending.take()!)
            if state.captures.count > capacity {
                let excess = state.captures.count - capacity
                state.captures.removeFirst(excess)
                state.evicted += excess
            }
            return sequence
        }
        for (continuation, matches, timeout) in ready {
            timeout?.cancel()
            continuation.resume(returning: matches)
        }
        if let diverted { diverted.consumer(diverted.capture) }
        return sequence
    }

    /// Hands every capture recorded from now on to `consumer` (after numbering it and outside the log's
    /// lock, so concurrent captures may reach it out of sequence order) instead of keeping it; nil keeps
    /// them again. Waiters still see each capture as it is recorded.
    ///
    /// A long load run diverts: it files each push under its call and drops it once the call is judged,
    /// so the log does not grow with the run.
    ///
    /// ```swift
    /// log.divert { capture in inbox.file(capture) }
    /// defer { log.divert(to: nil) }
    /// ```
    public func divert(to consumer: (@Sendable (Capture) -> Void)?) {
        state.withLock { $0.consumer = consumer }
    }

    // MARK: Queries

    /// The captures passing `filter`, oldest first.
    public func captures(_ filter: CaptureFilter = CaptureFilter()) -> [Capture] {
        state.withLock { $0.captures.filter(filter.matches) }
    }

    /// The first `limit` captures passing `filter`, oldest first, and whether more pass it: a query that
    /// holds the log's lock (and every mock recording a push) only as long as `limit` captures take.
    public func captures(_ filter: CaptureFilter, limit: Int) -> (captures: [Capture], more: Bool) {
        state.withLock { $0.captures.filter(limit: max(0, limit), filter.matches) }
    }

    /// The captures satisfying `predicate`, oldest first.
    public func captures(where predicate: (Capture) -> Bool) -> [Capture] {
        state.withLock { $0.captures.filter(predicate) }
    }

    /// How many `waitFor` calls are waiting.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// How many captures the log holds.
    public var count: Int { state.withLock { $0.captures.count } }

    /// The sequence number of the latest capture, 0 when none was ever recorded. Use it as a
    /// bookmark: later captures have greater numbers (numbering continues across `clear()`).
    public var lastSequence: Int { state.withLock { $0.nextSequence - 1 } }

    /// Forgets every capture (numbering continues) and returns how many there were.
    @discardableResult
    public func clear() -> Int {
        state.withLock { state in
            let n = state.captures.count
            state.captures.removeAll()
            return n
        }
    }

    // MARK: Waiting

    /// Predicates run under the log's lock: they must be quick and must not call back into the log.
    ///
    /// Waits until a capture satisfying `predicate` is in the log (one already recorded counts) and
    /// returns the first such capture, or nil when `timeout` runs out or the task is cancelled.
    public func waitFor(_ predicate: @escaping @Sendable (Capture) -> Bool, timeout: Duration) async -> Capture? {
        await waitFor(count: 1, matching: predicate, timeout: timeout).first
    }

    /// Waits until `count` captures satisfying `predicate` are in the log (already recorded ones count)
    /// and returns them, oldest first. When `timeout` runs out (or the task is cancelled) it returns
    /// the matches so far, which may be fewer than `count`: the caller decides, with the evidence.
    public func waitFor(
        count: Int, matching predicate: @escaping @Sendable (Capture) -> Bool, timeout: Duration
    ) async -> [Capture] {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Capture], Never>) in
                let immediate: [Capture]? = state.withLock { state in
                    let matches = state.captures.filter(predicate)
                    if matches.count >= count || Task.isCancelled { return Array(matches.prefix(max(count, 0))) }
                    state.waiters.append(
                        Waiter(id: id, count: count, predicate: predicate, matches: matches, continuation: continuation)
                    )
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                let timeoutTask = Task { [self] in
                    try? await Task.sleep(for: timeout)
                    self.finishWaiter(id)
                }
                let stillWaiting = state.withLock { state in
                    guard let i = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.waiters[i].timeoutTask = timeoutTask
                    return true
                }
                if !stillWaiting { timeoutTask.cancel() }
            }
        } onCancel: {
            self.finishWaiter(id)
        }
    }

    /// Ends a wait early with the matches found so far (timeout or cancellation).
    private func finishWaiter(_ id: UInt64) {
        let waiter: Waiter? = state.withLock { state in
            guard let i = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: i)
        }
        guard let waiter else { return }
        waiter.timeoutTask?.cancel()
        waiter.continuation.resume(returning: waiter.matches)
    }
}
