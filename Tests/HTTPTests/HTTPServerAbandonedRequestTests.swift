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

        /// Expects `path` to reach `state`; a failure says what the handler saw instead and whether the
        /// server had closed the client's connection (as it does to shed one when out of descriptors).
        func expect(
            _ path: String, _ state: String, on socket: RawSocket?, sourceLocation: SourceLocation = #_sourceLocation
        ) async {
            let now = await self.await(path, state)
            let connection = socket.map { $0.peerHasClosed ? "closed by the server" : "open" } ?? "closed by the test"
            #expect(
                now == state, "\(path): \(now ?? "never started"), connection \(connection)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func http1ClientThatClosesAbandonsItsRequest() async throws {
        let watcher = Watcher()
        try await withTestServer(handler: watcher) { server in
            let socket = try RawSocket(port: server.port)
            socket.send("GET /wait-h1 HTTP/1.1\r\nhost: x\r\n\r\n")
            await watcher.expect("/wait-h1", "started", on: socket)
            shutdown(socket.fd, Int32(SHUT_WR))  // FIN; the socket closes the descriptor itself
            await watcher.expect("/wait-h1", "abandoned", on: nil)

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
            await watcher.expect("/wait-reset", "started", on: socket)
            socket.send(H2Frames.frame(type: H2Frames.rstStream, stream: 1, [0, 0, 0, 8]))  // CANCEL
            await watcher.expect("/wait-reset", "abandoned", on: socket)
            socket.send(H2Frames.request(stream: 3, path: "/kept-h2"))
            await watcher.expect("/kept-h2", "answered", on: socket)
        }
    }

    @Test func http2DisconnectAbandonsEveryStream() async throws {
        let watcher = Watcher()
        try await withTestServer(handler: watcher) { server in
            let socket = try RawSocket(port: server.port)
            socket.send(
                H2Frames.clientStart + H2Frames.request(stream: 1, path: "/wait-a")
                    + H2Frames.request(stream: 3, path: "/wait-b"))
            await watcher.expect("/wait-a", "started", on: socket)
            await watcher.expect("/wait-b", "started", on: socket)
            socket.reset()
            await watcher.expect("/wait-a", "abandoned", on: nil)
            await watcher.expect("/wait-b", "abandoned", on: nil)
        }
    }
}
