import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// Refuses `/refused` on the event loop with an `AnswerStamp`, holding the loop until the test lets it go (so the
/// test can send more while the loop reads nothing), and answers every other path at once; keeps each request's
/// place in `ArrivalOrder` by path.
final class HeldRefusalHandler: HTTPImmediateHandler, @unchecked Sendable {  // semaphores and a Mutex
    struct Seen: Sendable {
        let arrivalOrder: UInt64
        let opensConnection: Bool
        let connectionOpenedOrder: UInt64
    }
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let stamp: AnswerStamp
    let seen = Mutex<[String: Seen]>([:])

    /// `awaitingRead`: the refusal asks its HTTP/2 client to acknowledge having read it (`AnswerStamp`).
    init(awaitingRead: Bool = false) { stamp = AnswerStamp(awaitingRead: awaitingRead) }

    func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        let seen = Seen(
            arrivalOrder: request.arrivalOrder, opensConnection: request.opensConnection,
            connectionOpenedOrder: request.connection.openedOrder)
        self.seen.withLock { $0[request.path] = seen }
        guard request.path == "/refused" else { return .text(200, "ok\n") }
        entered.signal()
        // Generous: a deadline only against a test that never lets go.
        _ = release.wait(timeout: .now() + 60)
        var response = HTTPResponse.text(410, "gone\n")
        response.sentStamp = stamp
        return response
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { respondImmediately(to: request)! }
}

/// A request the client sent before it could read a stamped answer (a refusal) must come before that answer's
/// stamp in `ArrivalOrder`, even when it still waited on the socket, or its connection in the backlog, as the
/// answer was written: the listener reads and accepts what waits before it writes such an answer. Seen as a
/// false CALLX-TOK-6 against a backend sending each invitation twice: the second copy, sent with the first, was
/// read after the refusal of the first had been written. A request sent once the answer was read comes after.
@Suite struct StampedAnswerWaitingInputTests {
    @Test func whatWaitsOnTheSocketsIsReadBeforeAStampedAnswerIsWritten() async throws {
        let handler = HeldRefusalHandler()
        let seen = try await withTestServer(handler: handler) { server in
            try await offPool {
                let a = try RawSocket(port: server.port)
                #expect(a.send(H2Frames.clientStart + H2Frames.request(stream: 1, method: "POST", path: "/refused")))
                try #require(handler.entered.wait(timeout: .now() + 60) == .success, "the refusal reached the handler")
                // The loop is held in the handler: what the client sends now waits on the sockets, unread.
                #expect(a.send(H2Frames.request(stream: 3, method: "POST", path: "/copy")))
                let b = try RawSocket(port: server.port)
                #expect(
                    b.send(H2Frames.clientStart + H2Frames.request(stream: 1, method: "POST", path: "/copy-elsewhere")))
                handler.release.signal()
                let refused = a.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 1) }
                try #require(H2Frames.contains(refused.bytes, type: H2Frames.headers, stream: 1), "the refusal came")
                // Sent once the refusal was read: after it.
                #expect(a.send(H2Frames.request(stream: 5, method: "POST", path: "/after")))
                let rest = a.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 5) }
                #expect(H2Frames.contains(refused.bytes + rest.bytes, type: H2Frames.headers, stream: 3))
                #expect(H2Frames.contains(rest.bytes, type: H2Frames.headers, stream: 5))
                let other = b.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 1) }
                #expect(H2Frames.contains(other.bytes, type: H2Frames.headers, stream: 1))
                return handler.seen.withLock { $0 }
            }
        }
        let left = handler.stamp.order
        #expect(left > 0, "the refusal's answer was written and stamped")
        let copy = try #require(seen["/copy"])
        #expect(copy.arrivalOrder < left, "sent on the same connection before the answer: read before it")
        let elsewhere = try #require(seen["/copy-elsewhere"])
        #expect(elsewhere.opensConnection)
        #expect(
            elsewhere.connectionOpenedOrder > 0 && elsewhere.connectionOpenedOrder < left,
            "a connection opened before the answer: accepted before it")
        let after = try #require(seen["/after"])
        #expect(after.arrivalOrder > left, "sent after the answer was read: after it")
    }
}
