import Foundation
import HTTP
import TestSupport
import Testing

/// `requestBodyTimeoutSeconds` and `requestBodyReadTimeoutSeconds`: a client whose request head is in but
/// whose body trickles (every byte resetting the idle timer) or stalls is cut off, on HTTP/1.1 with 408 and
/// on HTTP/2 with RST_STREAM; a body that trickles within both limits is served.
@Suite struct HTTPServerBodyDeadlineTests {
    /// Sends `prefix` at once, then each of `chunks` 0.2 s apart, until `done` holds for what came back,
    /// the server closes, or the chunks run out. Returns what came back, whether the server ended the
    /// connection, and how many chunks went out.
    static func trickle(
        _ port: Int, prefix: [UInt8], chunks: [[UInt8]], done: ([UInt8]) -> Bool
    ) throws -> (reply: [UInt8], ended: Bool, sent: Int) {
        let socket = try RawSocket(port: port, receiveTimeout: 0.2)
        socket.send(prefix)
        var reply: [UInt8] = []
        for (i, chunk) in chunks.enumerated() {
            guard socket.send(chunk) else { return (reply, true, i) }
            let r = socket.receive(until: { done(reply + $0) })
            reply += r.bytes
            if r.closed || r.reset { return (reply, true, i + 1) }
            if done(reply) {
                let rest = socket.receive()  // until the server closes, or 0.2 s
                return (reply + rest.bytes, rest.closed || rest.reset, i + 1)
            }
        }
        return (reply, false, chunks.count)
    }

    /// Runs `body` with the port of a test server whose body deadlines are `total` and `read` seconds.
    static func withServer(total: Double, read: Double, _ body: @escaping (Int) async throws -> Void) async throws {
        try await withTestServer(configure: {
            $0.requestBodyTimeoutSeconds = total
            $0.requestBodyReadTimeoutSeconds = read
        }) { server in try await body(server.port) }
    }

    static func http1Head(contentLength: Int) -> [UInt8] {
        Array("POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: \(contentLength)\r\n\r\n".utf8)
    }

    /// The preface, SETTINGS and a POST's HEADERS on stream 1 without END_STREAM: a body follows.
    static let http2Head =
        H2Frames.clientStart
        + H2Frames.frame(
            type: H2Frames.headers, flags: 0x4, stream: 1, H2Frames.requestBlock(method: "POST", path: "/echo"))

    static func http2Data(_ byte: UInt8, end: Bool = false) -> [UInt8] {
        H2Frames.frame(type: H2Frames.data, flags: end ? 0x1 : 0, stream: 1, [byte])
    }

    /// 150 single bytes, 30 s of trickling: generous beside a one-second deadline on a loaded machine.
    static let slowBytes = [[UInt8]](repeating: [UInt8(ascii: "a")], count: 150)

    @Test func tricklingHTTP1BodyGets408() async throws {
        try await Self.withServer(total: 1, read: 60) { port in
            let r = try await offPool {
                try Self.trickle(port, prefix: Self.http1Head(contentLength: 1000), chunks: Self.slowBytes) {
                    !$0.isEmpty
                }
            }
            #expect(r.ended && r.reply.text.hasPrefix("HTTP/1.1 408"), "\(r.reply.text) after \(r.sent) bytes")
            #expect(r.reply.text.contains("the request body did not arrive within 1.0 s"), "\(r.reply.text)")
            #expect(r.reply.text.contains("connection: close"))
        }
    }

    @Test func stalledHTTP1BodyGets408() async throws {
        try await Self.withServer(total: 600, read: 1) { port in
            let reply = try await offPool { () -> (bytes: [UInt8], closed: Bool, reset: Bool) in
                let socket = try RawSocket(port: port, receiveTimeout: 60)
                socket.send(Self.http1Head(contentLength: 10) + Array("abc".utf8))
                return socket.receive()  // until the server closes (or 60 s)
            }
            #expect(reply.closed && reply.bytes.text.hasPrefix("HTTP/1.1 408"), "\(reply.bytes.text)")
            #expect(reply.bytes.text.contains("no byte of the request body came for 1.0 s"), "\(reply.bytes.text)")
        }
    }

    /// 20 bytes 0.2 s apart: four seconds in all, past the three-second read timeout, but no gap near it.
    @Test func http1BodyTricklingWithinTheLimitsIsServed() async throws {
        try await Self.withServer(total: 60, read: 3) { port in
            let body = (0..<20).map { [UInt8(ascii: "a") + UInt8($0)] }
            let r = try await offPool {
                try Self.trickle(port, prefix: Self.http1Head(contentLength: 20), chunks: body) { !$0.isEmpty }
            }
            #expect(r.reply.text.hasPrefix("HTTP/1.1 200"), "\(r.reply.text) after \(r.sent) bytes")
            #expect(r.reply.text.hasSuffix(String(decoding: body.joined(), as: UTF8.self)), "\(r.reply.text)")
        }
    }

    @Test func tricklingHTTP2BodyIsResetAndTheIdleConnectionClosed() async throws {
        try await Self.withServer(total: 1, read: 60) { port in
            let chunks = (0..<150).map { _ in Self.http2Data(UInt8(ascii: "a")) }
            let r = try await offPool {
                try Self.trickle(port, prefix: Self.http2Head, chunks: chunks) {
                    H2Frames.contains($0, type: H2Frames.rstStream, stream: 1)
                }
            }
            #expect(H2Frames.contains(r.reply, type: H2Frames.rstStream, stream: 1), "no RST_STREAM after \(r.sent)")
            #expect(!H2Frames.contains(r.reply, type: H2Frames.headers, stream: 1), "the request was answered")
            // Nothing else was on the connection: GOAWAY, and it closes.
            #expect(H2Frames.contains(r.reply, type: H2Frames.goaway, stream: 0) && r.ended)
        }
    }

    @Test func stalledHTTP2BodyIsResetBesideABusyStream() async throws {
        try await Self.withServer(total: 600, read: 1) { port in
            let reply = try await offPool { () -> [UInt8] in
                let socket = try RawSocket(port: port, receiveTimeout: 60)
                // Stream 3 waits on its handler for 5 s while stream 1's body stalls after one byte.
                socket.send(
                    Self.http2Head + Self.http2Data(UInt8(ascii: "a"))
                        + H2Frames.request(stream: 3, path: "/slow?ms=5000"))
                return socket.receive { H2Frames.contains($0, type: H2Frames.headers, stream: 3) }.bytes
            }
            #expect(H2Frames.contains(reply, type: H2Frames.rstStream, stream: 1), "no RST_STREAM")
            // The connection stays for the stream still being answered.
            #expect(H2Frames.contains(reply, type: H2Frames.headers, stream: 3), "stream 3 not answered")
            #expect(!H2Frames.contains(reply, type: H2Frames.goaway, stream: 0), "GOAWAY with a stream in flight")
        }
    }

    @Test func http2BodyTricklingWithinTheLimitsIsServed() async throws {
        try await Self.withServer(total: 60, read: 3) { port in
            let chunks = (0..<20).map { Self.http2Data(UInt8(ascii: "a") + UInt8($0), end: $0 == 19) }
            let r = try await offPool {
                try Self.trickle(port, prefix: Self.http2Head, chunks: chunks) {
                    H2Frames.contains($0, type: H2Frames.headers, stream: 1)
                        || H2Frames.contains($0, type: H2Frames.rstStream, stream: 1)
                }
            }
            #expect(H2Frames.contains(r.reply, type: H2Frames.headers, stream: 1), "not answered after \(r.sent)")
            #expect(!H2Frames.contains(r.reply, type: H2Frames.rstStream, stream: 1), "reset")
            #expect(r.sent == 20)
        }
    }
}
