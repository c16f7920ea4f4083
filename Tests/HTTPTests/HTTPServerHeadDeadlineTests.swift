import Foundation
import HTTP
import TestSupport
import Testing

/// `requestHeadTimeoutSeconds`: a client trickling its request head (or HTTP/2 preface) one byte at a
/// time is cut off, though every byte resets the idle timer; a keep-alive client that pauses between
/// requests is not.
@Suite struct HTTPServerHeadDeadlineTests {
    static func configure(_ c: inout HTTPServer.Configuration) {
        c.requestHeadTimeoutSeconds = 1
        c.idleTimeoutSeconds = 60
    }

    /// Sends `bytes` one at a time, 0.2 s apart (repeating the last one), until the server answers or
    /// closes, or 50 bytes went out (10 s). Returns what came back and whether the server ended it.
    /// `prepare` runs on the new connection first (what it sends is not trickled, and replies to it
    /// do not count as the server's answer).
    static func trickle(_ port: Int, _ bytes: [UInt8], prepare: ((RawSocket) -> Void)? = nil) throws -> (
        reply: [UInt8], ended: Bool, sent: Int
    ) {
        let socket = try RawSocket(port: port, receiveTimeout: 0.2)
        prepare?(socket)
        var reply: [UInt8] = []
        for i in 0..<50 {
            guard socket.send([bytes[min(i, bytes.count - 1)]]) else { return (reply, true, i) }
            let r = socket.receive { !$0.isEmpty }
            reply += r.bytes
            if r.closed || r.reset { return (reply, true, i + 1) }
            if !reply.isEmpty && prepare == nil {
                let rest = socket.receive()  // the server closes after its 408
                return (reply + rest.bytes, rest.closed || rest.reset, i + 1)
            }
        }
        return (reply, false, 50)
    }

    @Test func tricklingHTTP1HeadGets408() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let port = server.port
            let head = Array("GET /echo HTTP/1.1\r\nx-slow: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 60)
            let r = try await offPool { try Self.trickle(port, head) }
            #expect(r.ended && r.reply.text.hasPrefix("HTTP/1.1 408"), "\(r.reply.text) after \(r.sent) bytes")
            #expect(r.reply.text.contains("connection: close"))
        }
    }

    @Test func tricklingHTTP2PrefaceIsClosed() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let port = server.port
            let r = try await offPool { try Self.trickle(port, H2Frames.preface) }
            #expect(r.ended && r.sent < 50, "still open after \(r.sent) bytes")
        }
    }

    @Test func tricklingHTTP2HeaderBlockGetsGoaway() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let port = server.port
            let block = H2Frames.requestBlock(path: "/" + String(repeating: "a", count: 100))
            let frame = H2Frames.frame(type: H2Frames.headers, flags: H2Frames.endStreamAndHeaders, stream: 1, block)
            let r = try await offPool {
                try Self.trickle(port, Array(frame.dropFirst(13))) { socket in
                    // Past the deadline counted from the accept, so the header block's own one applies.
                    socket.send(H2Frames.clientStart)
                    Thread.sleep(forTimeInterval: 1.5)
                    socket.send(Array(frame.prefix(13)))
                }
            }
            #expect(r.ended && r.sent < 50, "still open after \(r.sent) bytes")
            #expect(H2Frames.contains(r.reply, type: H2Frames.goaway, stream: 0), "no GOAWAY")
        }
    }

    @Test func tricklingTLSHandshakeIsClosed() async throws {
        try await withTestServer(tls: true, configure: Self.configure) { server in
            let port = server.port
            // A ClientHello record header announcing more than will arrive before the deadline.
            let r = try await offPool {
                try Self.trickle(port, [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc])
            }
            #expect(r.ended && r.sent < 50, "still open after \(r.sent) bytes")
        }
    }

    @Test func keepAliveClientPausingBetweenRequestsIsServed() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let port = server.port
            let replies = try await offPool { () -> [String] in
                let socket = try RawSocket(port: port)
                var replies: [String] = []
                for _ in 0..<2 {
                    socket.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
                    replies.append(socket.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text)
                    Thread.sleep(forTimeInterval: 1.5)  // past the head deadline, between requests
                }
                return replies
            }
            #expect(replies.count == 2 && replies.allSatisfy { $0.hasPrefix("HTTP/1.1 204") }, "\(replies)")
        }
    }

    @Test func http2ClientPausingAfterItsPrefaceIsServed() async throws {
        try await withTestServer(configure: Self.configure) { server in
            let port = server.port
            let reply = try await offPool { () -> [UInt8] in
                let socket = try RawSocket(port: port)
                socket.send(H2Frames.clientStart)
                Thread.sleep(forTimeInterval: 1.5)
                socket.send(H2Frames.request(stream: 1, path: "/status?code=204"))
                return socket.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 1) }.bytes
            }
            #expect(H2Frames.contains(reply, type: H2Frames.headers, stream: 1))
        }
    }
}
