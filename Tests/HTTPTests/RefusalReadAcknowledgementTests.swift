import TestSupport
import Testing

@testable import HTTP

/// A refusal's client had it only once it acknowledged the PING the listener sends right after writing it
/// (`AnswerStamp.awaitingRead`, `readOrder`): a request on that connection read after the write but before the
/// ACK was sent before the client could have read the refusal (a backend's second copy of a push, sent with the
/// first, seen as a false CALLX-TOK-6), one after the ACK was sent knowing it. The ACK is ordered among the
/// requests read with it, frame by frame.
@Suite struct RefusalReadAcknowledgementTests {
    @Test func requestsBeforeThePingAckComeBeforeTheReadAndThoseAfterItAfter() async throws {
        let handler = HeldRefusalHandler(awaitingRead: true)
        handler.release.signal()  // no hold: the refusal is answered at once
        let (seen, readBeforeAck) = try await withTestServer(handler: handler) { server in
            try await offPool {
                let a = try RawSocket(port: server.port)
                #expect(a.send(H2Frames.clientStart + H2Frames.request(stream: 1, method: "POST", path: "/refused")))
                let refused = a.receive {
                    H2Frames.contains($0, type: H2Frames.headers, stream: 1) && H2Frames.pingPayload(in: $0) != nil
                }
                try #require(H2Frames.contains(refused.bytes, type: H2Frames.headers, stream: 1), "the refusal came")
                let payload = try #require(H2Frames.pingPayload(in: refused.bytes), "a PING followed the refusal")
                let readBeforeAck = handler.stamp.readOrder
                // One write: a copy sent before the ACK, the ACK, a push sent after it.
                #expect(
                    a.send(
                        H2Frames.request(stream: 3, method: "POST", path: "/copy")
                            + H2Frames.frame(type: H2Frames.ping, flags: 0x1, payload)
                            + H2Frames.request(stream: 5, method: "POST", path: "/after")))
                let rest = a.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 5) }
                #expect(H2Frames.contains(rest.bytes, type: H2Frames.headers, stream: 5))
                return (handler.seen.withLock { $0 }, readBeforeAck)
            }
        }
        let written = handler.stamp.order
        let read = handler.stamp.readOrder
        #expect(written > 0, "the refusal was written and stamped")
        #expect(readBeforeAck == 0, "not read before the client acknowledged")
        #expect(read > written, "read once the ACK came")
        let copy = try #require(seen["/copy"])
        #expect(copy.arrivalOrder > written, "read after the refusal was written…")
        #expect(copy.arrivalOrder < read, "…but sent before the client acknowledged reading it")
        let after = try #require(seen["/after"])
        #expect(after.arrivalOrder > read, "sent after the ACK: after the read")
    }

    @Test func aClientThatNeverAcknowledgesLeavesOnlyTheWrite() async throws {
        let handler = HeldRefusalHandler(awaitingRead: true)
        handler.release.signal()
        try await withTestServer(handler: handler) { server in
            try await offPool {
                let a = try RawSocket(port: server.port)
                #expect(a.send(H2Frames.clientStart + H2Frames.request(stream: 1, method: "POST", path: "/refused")))
                _ = a.receive { H2Frames.pingPayload(in: $0) != nil }
                #expect(a.send(H2Frames.request(stream: 3, method: "POST", path: "/after")))
                let rest = a.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 3) }
                #expect(H2Frames.contains(rest.bytes, type: H2Frames.headers, stream: 3))
            }
        }
        #expect(handler.stamp.order > 0)
        #expect(handler.stamp.readOrder == 0, "no ACK: only the write counts")
    }
}
