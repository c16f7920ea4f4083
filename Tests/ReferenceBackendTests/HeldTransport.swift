import HTTP
import Synchronization

@testable import ReferenceBackend

/// A push transport that holds every send until `release()` (then answers 200), or until its task is cancelled
/// (then throws `CancellationError`, as the real transport gives up): a push in flight for as long as a test needs.
///
/// ```swift
/// let transport = HeldTransport()
/// // … a worker sends; transport.sent.count == 1, still unanswered …
/// transport.release()   // the send is answered 200
/// ```
final class HeldTransport: PushTransport {
    private struct State {
        var sent: [PushRequest] = []
        var released = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
    }
    private let state = Mutex(State())

    var sent: [PushRequest] { state.withLock { $0.sent } }

    /// Answers every send held now, and every later one at once.
    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func send(_ request: PushRequest) async throws -> HTTPResponse {
        let id = state.withLock { state in
            state.sent.append(request)
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let go = state.withLock { state in
                    if state.released || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if go { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        try Task.checkCancellation()
        return HTTPResponse(status: 200)
    }
}
