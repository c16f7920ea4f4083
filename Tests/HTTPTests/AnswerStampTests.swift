import HTTP
import Synchronization
import TestSupport
import Testing

/// Answers off the event loop with an `AnswerStamp` on every response, keeping each request's read position,
/// its own decision's position and the stamp.
final class StampingHandler: HTTPHandler {
    struct Answered {
        let arrivalOrder: UInt64
        let decidedOrder: UInt64
        let stamp: AnswerStamp
    }
    let answered = Mutex<[Answered]>([])

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var response = HTTPResponse.text(410, "gone\n")
        let stamp = AnswerStamp()
        response.sentStamp = stamp
        let decided = ArrivalOrder.next()
        answered.withLock {
            $0.append(Answered(arrivalOrder: request.arrivalOrder, decidedOrder: decided, stamp: stamp))
        }
        return response
    }
}

/// The connection marks an answer's stamp once the answer is written out: after the handler decided it, and
/// before any request the client sends once it has read that answer, on HTTP/1.1 and HTTP/2 alike.
@Suite struct AnswerStampTests {
    @Test(arguments: [ClientHTTPVersion.http1_1, .http2])
    func anAnswerIsStampedWhenItLeavesBeforeTheNextRequestIsRead(version: ClientHTTPVersion) async throws {
        let handler = StampingHandler()
        try await withTestServer(handler: handler) { server in
            let client = try HTTPClient(configuration: .init(httpVersion: version))
            defer { client.shutdown() }
            for _ in 0..<5 {
                let r = try await client.send(.get("http://127.0.0.1:\(server.port)/token"))
                #expect(r.status == 410)
            }
        }
        let answered = handler.answered.withLock { $0 }
        #expect(answered.count == 5)
        for (i, a) in answered.enumerated() {
            #expect(a.arrivalOrder > 0 && a.decidedOrder > a.arrivalOrder)
            #expect(a.stamp.order > a.decidedOrder, "answer \(i): stamped after its decision")
            // The client sent the next request only after it had read this answer.
            if i + 1 < answered.count {
                #expect(a.stamp.order < answered[i + 1].arrivalOrder, "answer \(i): stamped before the next read")
            }
        }
    }
}
