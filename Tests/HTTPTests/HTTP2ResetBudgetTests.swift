import TestSupport
import Testing

@testable import HTTP

/// The session's defence against rapid reset (`HTTP2ResetBudget`), fed frames without sockets: resets of
/// answered streams, which curl sends after every response, never end a connection; resets of open
/// streams end it past the budget, and nothing after that is handled.
@Suite(.cpuBound) struct HTTP2ResetBudgetTests {
    @Test func budgetAllowsABurstThenThirtyThreeASecond() {
        var budget = HTTP2ResetBudget()
        /// How many of `n` resets at `nowMs` the budget allows.
        func allowed(_ n: Int, at nowMs: Int64) -> Int { (0..<n).filter { _ in budget.spend(nowMs: nowMs) }.count }
        #expect(allowed(1_001, at: 5_000) == HTTP2ResetBudget.burst)
        #expect(allowed(1, at: 5_029) == 0)  // under one token's time (1000/33 ms)
        #expect(allowed(100, at: 6_000) == HTTP2ResetBudget.perSecond)
        // A long pause fills the bucket to its burst, no more.
        #expect(allowed(2_000, at: 3_600_000) == HTTP2ResetBudget.burst)
    }

    /// A session with a clock that never moves (no token comes back with time) and what it sent.
    final class Peer {
        let session: HTTP2Session
        var output: [UInt8] = []
        var answered: [Int32] = []

        init() throws {
            session = try #require(
                HTTP2Session(maxConcurrentStreams: 100, maxHeaderBytes: 16_384, maxBodyBytes: 16_384, nowMs: { 0 }))
            #expect(feed(H2Frames.clientStart))
        }

        /// Feeds `bytes`, answers every completed request with 200, collects the output; false on a fatal error.
        @discardableResult
        func feed(_ bytes: [UInt8]) -> Bool {
            let ok = bytes.withUnsafeBytes { session.receive($0) }
            for stream in session.completed where !stream.dispatched {
                session.markDispatched(stream)
                answered.append(stream.id)
                session.submitResponse(streamID: stream.id, .text(200, ""))
            }
            session.completed.removeAll()
            _ = session.send { chunk in
                self.output += chunk
                return true
            }
            return ok
        }
    }

    static func reset(_ stream: UInt32, code: UInt8) -> [UInt8] {
        H2Frames.frame(type: H2Frames.rstStream, stream: stream, [0, 0, 0, code])
    }

    /// What curl 7.88 does on one connection: each request's RST_STREAM(STREAM_CLOSED) after its answer, sent
    /// with the next request. nghttp2's own bucket counted those and sent GOAWAY after 1,000 of them.
    @Test func resetsOfAnsweredStreamsNeverEndTheConnection() throws {
        let peer = try Peer()
        let requests = 5_000
        for i in 0..<requests {
            let id = UInt32(2 * i + 1)
            var chunk = H2Frames.request(stream: id, method: "POST", path: "/3/device/\(i)")
            if i > 0 { chunk = Self.reset(id - 2, code: 5) + chunk }
            #expect(peer.feed(chunk))
            if peer.answered.count != i + 1 { break }
        }
        #expect(peer.answered.count == requests)
        #expect(H2Frames.goaway(in: peer.output) == nil)
        #expect(peer.session.wantsRead)
    }

    /// Rapid reset: streams opened and reset at once. Past the budget the session sends GOAWAY
    /// ENHANCE_YOUR_CALM naming the last stream it took, and takes no request that came after the reset
    /// (nghttp2's own GOAWAY named the last stream received, yet the same read's later requests were handled).
    @Test func resetsOfOpenStreamsPastTheBudgetEndTheConnection() throws {
        let peer = try Peer()
        var id: UInt32 = 1
        for _ in 0..<HTTP2ResetBudget.burst {
            let open = H2Frames.frame(
                type: H2Frames.headers, flags: 0x4, stream: id, H2Frames.requestBlock(method: "POST", path: "/x"))
            #expect(peer.feed(open + Self.reset(id, code: 8)))
            id += 2
        }
        #expect(H2Frames.goaway(in: peer.output) == nil)
        let open = H2Frames.frame(
            type: H2Frames.headers, flags: 0x4, stream: id, H2Frames.requestBlock(method: "POST", path: "/x"))
        peer.feed(open + Self.reset(id, code: 8) + H2Frames.request(stream: id + 2, path: "/after"))
        let goaway = try #require(H2Frames.goaway(in: peer.output))
        #expect(goaway.code == 0xb)
        #expect(goaway.lastStream == id)
        #expect(peer.answered.isEmpty)
        #expect(!peer.session.wantsRead)
    }
}
