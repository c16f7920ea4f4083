import CLinux
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTP

/// `maxConnections` and running out of descriptors: connections beyond the cap are closed at once,
/// EMFILE sheds the newest connection and rests the listener instead of spinning, and the server keeps
/// serving the connections it has.
@Suite struct HTTPServerConnectionLimitTests {
    static func get(_ socket: RawSocket) -> String {
        socket.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
        return socket.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text
    }

    @Test func connectionsBeyondTheCapAreClosedAndTheOthersServed() async throws {
        try await withTestServer(configure: { $0.maxConnections = 3 }) { server in
            let port = server.port
            let (held, extra, again, replacement) = try await offPool {
                () -> ([String], (bytes: [UInt8], closed: Bool, reset: Bool), [String], String) in
                let sockets = try (0..<3).map { _ in try RawSocket(port: port) }
                let held = sockets.map(Self.get)
                let extra = try RawSocket(port: port, receiveTimeout: 10)
                extra.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
                let refused = extra.receive()
                let again = sockets.map(Self.get)
                // A freed place is given to the next client (once the loop saw the close).
                sockets[0].reset()
                var replacement = ""
                for _ in 0..<50 where !replacement.hasPrefix("HTTP/1.1 204") {
                    Thread.sleep(forTimeInterval: 0.1)
                    let s = try RawSocket(port: port, receiveTimeout: 5)
                    replacement = Self.get(s)
                }
                return (held, refused, again, replacement)
            }
            #expect(held.allSatisfy { $0.hasPrefix("HTTP/1.1 204") }, "\(held)")
            #expect((extra.closed || extra.reset) && extra.bytes.isEmpty, "\(extra.bytes.text)")
            #expect(again.allSatisfy { $0.hasPrefix("HTTP/1.1 204") }, "\(again)")
            #expect(replacement.hasPrefix("HTTP/1.1 204"), "\(replacement)")
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
