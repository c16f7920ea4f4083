import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

/// `HTTPRequest.isAbandoned` turns true for a handler whose client went away (HTTP/1.1 close, HTTP/2
/// stream reset or disconnect), and stays false for a client that waits.
@Suite struct HTTPServerAbandonedRequestTests {
    /// Records what each request (by path) saw: `started`, then `abandoned` or `answered`.
    final class Watcher: HTTPHandler {
        let seen = Mutex<[String: String]>([:])

        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            let path = request.path
            seen.withLock { $0[path] = "started" }
            // /wait-* requests wait for their client to leave (15 s at most); others answer after a moment.
            let waits = path.hasPrefix("/wait-")
            for _ in 0..<(waits ? 1500 : 20) {
                if request.isAbandoned {
                    seen.withLock { $0[path] = "abandoned" }
                    return .text(200, "too late\n")
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            seen.withLock { $0[path] = "answered" }
            return .text(200, "ok\n")
        }

        /// Waits (15 s at most) until `path` reached `state`; returns the state it has.
        func await(_ path: String, _ state: String) async -> String? {
            for _ in 0..<1500 {
                let now = seen.withLock { $0[path] }
                if now == state { return now }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return seen.withLock { $0[path] }
        }
    }

    @Test func http1ClientThatClosesAbandonsItsRequest() async throws {
        let watcher = Watcher()
        try await withTestServer(handler: watcher) { server in
            let socket = try RawSocket(port: server.port)
            socket.send("GET /wait-h1 HTTP/1.1\r\nhost: x\r\n\r\n")
            #expect(await watcher.await("/wait-h1", "started") == "started")
            shutdown(socket.fd, Int32(SHUT_WR))  // FIN; the socket closes the descriptor itself
            #expect(await watcher.await("/wait-h1", "abandoned") == "abandoned")

            // A client that waits is answered, and its request was never abandoned.
            let kept = try RawSocket(port: server.port)
            kept.send("GET /kept-h1 HTTP/1.1\r\nhost: x\r\n\r\n")
            let reply = try await offPool { kept.receive { $0.text.hasSuffix("ok\n") } }
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 200"))
            #expect(watcher.seen.withLock { $0["/kept-h1"] } == "answered")
        }
    }

    @Test func http2StreamResetAbandonsOnlyThatStream() async throws {
        let watcher = Watcher()
        try await withTestServer(handler: watcher) { server in
            let socket = try RawSocket(port: server.port)
            socket.send(H2Frames.clientStart + H2Frames.request(stream: 1, path: "/wait-reset"))
            #expect(await watcher.await("/wait-reset", "started") == "started")
            socket.send(H2Frames.frame(type: H2Frames.rstStream, stream: 1, [0, 0, 0, 8]))  // CANCEL
            #expect(await watcher.await("/wait-reset", "abandoned") == "abandoned")
            socket.send(H2Frames.request(stream: 3, path: "/kept-h2"))
            #expect(await watcher.await("/kept-h2", "answered") == "answered")
        }
    }

    @Test func http2DisconnectAbandonsEveryStream() async throws {
        let watcher = Watcher()
        try await withTestServer(handler: watcher) { server in
            let socket = try RawSocket(port: server.port)
            socket.send(
                H2Frames.clientStart + H2Frames.request(stream: 1, path: "/wait-a")
                    + H2Frames.request(stream: 3, path: "/wait-b"))
            #expect(await watcher.await("/wait-a", "started") == "started")
            #expect(await watcher.await("/wait-b", "started") == "started")
            socket.reset()
            #expect(await watcher.await("/wait-a", "abandoned") == "abandoned")
            #expect(await watcher.await("/wait-b", "abandoned") == "abandoned")
        }
    }
}
