import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

/// `HTTPRequest.isAbandoned` turns true for a handler whose client went away (HTTP/1.1 close, HTTP/2
/// stream reset or disconnect), and stays false for a client that waits.
@Suite struct HTTPServerAbandonedRequestTests {
    /// Records what each request (by path) saw, in order: `started`, then `abandoned` or `answered`.
    ///
    /// The test reads the history, not the latest state, and `/wait-*` handlers wait as long as the
    /// test may: the test's own tasks run on the cooperative pool, which a loaded full run starved for
    /// over 15 s while the handlers (on their own threads) went on. A handler that gave up after 15 s
    /// then answered before the test looked or had left (CI, and once here).
    final class Watcher: HTTPHandler {
        let seen = Mutex<[String: [String]]>([:])
        /// How long a `/wait-*` handler waits for its client to leave, and the test for a state.
        static let patience: Duration = .seconds(120)

        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            let path = request.path
            seen.withLock { $0[path, default: []].append("started") }
            // /wait-* requests wait for their client to leave; others answer after a moment.
            let until = ContinuousClock.now + (path.hasPrefix("/wait-") ? Self.patience : .milliseconds(200))
            while ContinuousClock.now < until {
                if request.isAbandoned {
                    seen.withLock { $0[path, default: []].append("abandoned") }
                    return .text(200, "too late\n")
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            seen.withLock { $0[path, default: []].append("answered") }
            return .text(200, "ok\n")
        }

        /// Waits (`patience` at most) until `path` has reached `state`; returns its states so far.
        func await(_ path: String, _ state: String) async -> [String] {
            let deadline = ContinuousClock.now + Self.patience
            while ContinuousClock.now < deadline {
                let states = seen.withLock { $0[path] ?? [] }
                if states.contains(state) { return states }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return seen.withLock { $0[path] ?? [] }
        }

        /// Expects `path` to reach `state`; a failure says what the handler saw instead and whether the
        /// server had closed the client's connection (as it does to shed one when out of descriptors).
        func expect(
            _ path: String, _ state: String, on socket: RawSocket?, sourceLocation: SourceLocation = #_sourceLocation
        ) async {
            let states = await self.await(path, state)
            let connection = socket.map { $0.peerHasClosed ? "closed by the server" : "open" } ?? "closed by the test"
            #expect(
                states.contains(state),
                "\(path): \(states.isEmpty ? "never started" : states.joined(separator: ", ")), connection \(connection)",
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
            let reply = await offPool { kept.receive { $0.text.hasSuffix("ok\n") } }
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 200"))
            #expect(watcher.seen.withLock { $0["/kept-h1"] } == ["started", "answered"])
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
