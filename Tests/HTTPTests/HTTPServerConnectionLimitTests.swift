import CLinux
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// `maxConnections` and running out of descriptors: connections beyond the cap are closed at once,
/// EMFILE sheds the newest connection and rests the listener instead of spinning, and the server keeps
/// serving the connections it has.
@Suite(.heavyTraffic) struct HTTPServerConnectionLimitTests {
    static func get(_ socket: RawSocket) -> String {
        socket.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
        return socket.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text
    }

    /// Holds requests for `/held` at the handler until `release()`, counting them; answers others 204.
    final class HeldHandler: HTTPHandler {
        let state = Atomic<Int>(0)
        let released = Atomic<Bool>(false)

        func handle(_ request: HTTPRequest) async -> HTTPResponse {
            guard request.path == "/held" else { return .text(204, "") }
            state.add(1, ordering: .relaxed)
            while !released.load(ordering: .relaxed) { try? await Task.sleep(nanoseconds: 20_000_000) }
            return .text(204, "")
        }

        var arrived: Int { state.load(ordering: .relaxed) }
        func release() { released.store(true, ordering: .relaxed) }
    }

    /// Waits up to `seconds` for `condition`.
    static func waitFor(seconds: Double = 30, _ condition: () -> Bool) {
        for _ in 0..<Int(seconds * 10) where !condition() { Thread.sleep(forTimeInterval: 0.1) }
    }

    @Test func connectionsBeyondACapOfBusyConnectionsAreClosedAndTheOthersServed() async throws {
        let handler = HeldHandler()
        try await withTestServer(configure: { $0.maxConnections = 3 }, handler: handler) { server in
            let port = server.port
            let (extra, held, replacement) = try await offPool {
                () -> ((bytes: [UInt8], closed: Bool, reset: Bool), [String], String) in
                let sockets = try (0..<3).map { _ in try RawSocket(port: port) }
                for s in sockets { s.send("GET /held HTTP/1.1\r\nhost: x\r\n\r\n") }
                Self.waitFor { handler.arrived == 3 }
                // Every place is taken by a request at the handler: nothing can be shed for the newcomer.
                let extra = try RawSocket(port: port, receiveTimeout: 10)
                extra.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
                let refused = extra.receive()
                handler.release()
                let held = sockets.map { $0.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text }
                // A freed place is given to the next client (once the loop saw the close).
                sockets[0].reset()
                var replacement = ""
                for _ in 0..<50 where !replacement.hasPrefix("HTTP/1.1 204") {
                    Thread.sleep(forTimeInterval: 0.1)
                    let s = try RawSocket(port: port, receiveTimeout: 5)
                    replacement = Self.get(s)
                }
                return (refused, held, replacement)
            }
            #expect((extra.closed || extra.reset) && extra.bytes.isEmpty, "\(extra.bytes.text)")
            #expect(held.allSatisfy { $0.hasPrefix("HTTP/1.1 204") }, "\(held)")
            #expect(replacement.hasPrefix("HTTP/1.1 204"), "\(replacement)")
        }
    }

    /// At the cap, a newcomer takes the place of a connection whose request body trickles in (and which
    /// is told 503), not of the one waiting on its handler.
    @Test func newcomerAtTheCapTakesTheSlowestConnectionsPlace() async throws {
        let handler = HeldHandler()
        try await withTestServer(configure: { $0.maxConnections = 3 }, handler: handler) { server in
            let port = server.port
            let (busy, slow, newcomer) = try await offPool { () -> (String, [String], String) in
                let busy = try RawSocket(port: port)
                busy.send("GET /held HTTP/1.1\r\nhost: x\r\n\r\n")
                Self.waitFor { handler.arrived == 1 }
                // Two bodies the server has asked for (its 100 Continue says it read the head) and not received.
                let slow = try (0..<2).map { _ in try RawSocket(port: port, receiveTimeout: 3) }
                for s in slow {
                    s.send("POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\nexpect: 100-continue\r\n\r\n")
                    _ = s.receive { $0.text.hasSuffix("\r\n\r\n") }
                }
                let newcomer = try RawSocket(port: port, receiveTimeout: 30)
                newcomer.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
                let answer = newcomer.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text
                let shed = slow.map { s in
                    let r = s.receive()
                    return r.closed || r.reset ? r.bytes.text : "open"
                }
                handler.release()
                return (busy.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text, shed, answer)
            }
            #expect(newcomer.hasPrefix("HTTP/1.1 204"), "\(newcomer)")
            #expect(slow.filter { $0.hasPrefix("HTTP/1.1 503") }.count == 1, "\(slow)")
            #expect(slow.filter { $0 == "open" }.count == 1, "\(slow)")
            #expect(busy.hasPrefix("HTTP/1.1 204"), "\(busy)")
        }
    }

    /// Opens `count` connections that send nothing and waits up to 10 s until the server closed
    /// `closedAtLeast` of them (a listener at its cap sheds the oldest for each newcomer). Returns those
    /// still open.
    static func flood(_ port: Int, count: Int, closedAtLeast: Int) throws -> [RawSocket] {
        let sockets = try (0..<count).map { _ in try RawSocket(port: port) }
        waitFor(seconds: 10) { sockets.filter(\.peerHasClosed).count >= closedAtLeast }
        return sockets.filter { !$0.peerHasClosed }
    }

    /// Listeners sharing a pool of 16 places: one holds at most 8, so a flood on it leaves another room;
    /// floods on two fill the shared places, and a listener's reserved places still take its clients.
    @Test func oneListenersFloodLeavesTheOthersRoom() async throws {
        let pool = ConnectionPool(capacity: 16)
        // The floods' connections send nothing: no head deadline may close them while the test runs.
        func configure(_ c: inout HTTPServer.Configuration) {
            c.connectionPool = pool
            c.requestHeadTimeoutSeconds = 600
        }
        try await withTestServer(configure: configure) { flooded in
            try await withTestServer(configure: configure) { other in
                try await withTestServer(configure: {
                    configure(&$0)
                    $0.reservedConnections = 2
                }) { control in
                    let ports = (flooded.port, other.port, control.port)
                    let (otherAnswer, open, controlAnswer) = try await offPool { () -> (String, [Int], String) in
                        let first = try Self.flood(ports.0, count: 20, closedAtLeast: 12)
                        let otherAnswer = Self.get(try RawSocket(port: ports.1))
                        // 16 places, 2 reserved, 8 taken by the first flood: 6 are left for the second.
                        let second = try Self.flood(ports.1, count: 20, closedAtLeast: 14)
                        let controlAnswer = Self.get(try RawSocket(port: ports.2))
                        return (
                            otherAnswer, [first.count, second.count, first.filter { !$0.peerHasClosed }.count],
                            controlAnswer
                        )
                    }
                    #expect(otherAnswer.hasPrefix("HTTP/1.1 204"), "\(otherAnswer)")
                    #expect(controlAnswer.hasPrefix("HTTP/1.1 204"), "\(controlAnswer)")
                    // The second listener's 6 places: 5 when the first answer's connection, which its client had
                    // closed, was still being read as the flood came in (and a flood connection went for it).
                    #expect(open[0] == 8 && open[2] == 8 && (5...6).contains(open[1]), "\(open) flood connections held")
                }
            }
        }
    }

    /// accept4 failing with EMFILE while `failing` is set, counting its calls.
    final class FailingAccept: Sendable {
        let state = Mutex<(failing: Bool, calls: Int)>((false, 0))

        func accept(_ listenFD: Int32) -> Int32 {
            let failing = state.withLock { s in
                if s.failing { s.calls += 1 }
                return s.failing
            }
            if failing {
                errno = EMFILE
                return -1
            }
            return rc_accept4(listenFD, nil, nil, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
        }
    }

    @Test func runningOutOfDescriptorsShedsTheNewestAndRests() async throws {
        let hook = FailingAccept()
        try await withTestServer(configure: { $0.acceptOverride = { hook.accept($0) } }) { server in
            let port = server.port
            let kept = try RawSocket(port: port)
            #expect(await offPool { Self.get(kept) }.hasPrefix("HTTP/1.1 204"))
            hook.state.withLock { $0.failing = true }
            let shed = try await offPool { () -> (bytes: [UInt8], closed: Bool, reset: Bool) in
                let s = try RawSocket(port: port, receiveTimeout: 10)
                let r = s.receive()
                Thread.sleep(forTimeInterval: 0.5)
                return r
            }
            let calls = hook.state.withLock { s in
                s.failing = false
                return s.calls
            }
            // Shed at once rather than left in the backlog, and no busy loop: without the pause and the
            // spare descriptor this counted hundreds of thousands of calls.
            #expect(shed.closed || shed.reset)
            #expect(calls >= 1 && calls < 100, "accept called \(calls) times while out of descriptors")
            #expect(await offPool { Self.get(kept) }.hasPrefix("HTTP/1.1 204"))
            let fresh = try RawSocket(port: port)
            #expect(await offPool { Self.get(fresh) }.hasPrefix("HTTP/1.1 204"))
        }
    }
}
