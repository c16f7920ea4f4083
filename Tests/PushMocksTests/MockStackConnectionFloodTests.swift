import Foundation
import HTTP
import TestSupport
import Testing

@testable import PushMocks

/// Floods of connections that never finish a request on the providers' listeners leave the control API
/// reachable: each listener holds at most half of the process's connection places, and the control API has
/// places of its own (`MockStack.controlReservedConnections`). Before, two flooded listeners took every
/// descriptor of the process and every listener refused new connections.
@Suite(.heavyTraffic) struct MockStackConnectionFloodTests {
    static func port(_ url: String) -> Int { URL(string: url)?.port ?? 0 }

    /// Opens `count` connections that send nothing and waits up to 10 s until the server closed at least
    /// `closed` of them (a listener at its cap sheds its oldest for each newcomer). Returns them all.
    /// Both floods together stay well within the 30 s head deadline, which would close them.
    static func flood(_ port: Int, count: Int, closed: Int) throws -> [RawSocket] {
        let sockets = try (0..<count).map { _ in try RawSocket(port: port) }
        for _ in 0..<100 where sockets.filter(\.peerHasClosed).count < closed {
            Thread.sleep(forTimeInterval: 0.1)
        }
        return sockets
    }

    @Test func controlAPIAnswersWhileTwoProviderListenersAreFlooded() async throws {
        // 64 places: each listener holds at most 32, the control API keeps 8 (an eighth).
        var options = MockStack.Options.forTests
        options.connectionPool = ConnectionPool(capacity: 64)
        let stack = try await MockStack.start(options)
        defer { stack.stop() }
        let settings = stack.settings
        let (held, health) = try await offPool { () -> (Int, String) in
            let apns = try Self.flood(Self.port(settings.apnsURL), count: 40, closed: 8)
            // The 24 shared places the APNs flood left go to the Google listener's flood.
            let google = try Self.flood(Self.port(settings.fcmURL), count: 40, closed: 16)
            let socket = try RawSocket(port: Self.port(settings.controlURL))
            socket.send("GET /v1/health HTTP/1.1\r\nhost: localhost\r\n\r\n")
            let health = socket.receive { $0.text.contains("\"status\"") }.bytes.text
            return ((apns + google).filter { !$0.peerHasClosed }.count, health)
        }
        #expect(health.hasPrefix("HTTP/1.1 200"), "\(health)")
        #expect(held == 56, "\(held) flood connections held")
    }
}
