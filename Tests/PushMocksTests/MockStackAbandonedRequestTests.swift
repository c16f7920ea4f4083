import Foundation
import HTTP
import JSON
import TestSupport
import Testing

@testable import PushMocks

/// Control-API requests whose clients give up must not take the provider listeners down with them:
/// before the control API had threads of its own, dropped requests and a bounded capture query, 40
/// abandoned `GET /v1/captures` left FCM and OAuth silent for about 20 s, 100 abandoned h2 streams
/// for about 46 s.
@Suite struct MockStackAbandonedRequestTests {
    let mocks: MockStackHarness
    var clients: MockStackClients { mocks.clients }

    init() async throws { mocks = try await MockStackHarness.start() }

    /// Records `n` rejected APNs pushes (unsigned), so that each capture query has a log to render.
    func fillLog(_ n: Int) async {
        let f = MockFixture()
        for i in 0..<n {
            if i % 500 == 0 { await Task.yield() }
            _ = await mocks.stack.providers.apnsProduction.handle(f.apnsRequest(connectionID: UInt64(i)))
        }
    }

    /// HTTP/1.1 requests sent on connections closed right after (as a client with a short timeout
    /// does), and h2 streams sent on a connection that then goes away.
    func abandon(http1 count: Int, h2Streams: Int, path: String) async throws {
        let port = Int(mocks.settings.controlURL.split(separator: ":").last!)!
        try await offPool {
            for _ in 0..<count {
                let socket = try RawSocket(port: port)
                socket.send("GET \(path) HTTP/1.1\r\nhost: localhost\r\n\r\n")
                _ = socket  // closed (FIN) when released
            }
            let h2 = try RawSocket(port: port)
            var bytes = H2Frames.clientStart
            for i in 0..<h2Streams { bytes += H2Frames.request(stream: UInt32(2 * i + 1), path: path) }
            h2.send(bytes)
        }
    }

    /// The FCM flow (an OAuth token, then a push) is answered, well within urllib's 10 s per request.
    func expectGoogleFlowAnswered(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let start = ContinuousClock.now
        let result = try await clients.googleSend([MockFixture.callxMessage()])
        let elapsed = ContinuousClock.now - start
        #expect(result["oauth"]?["status"]?.intValue == 200, "\(result)", sourceLocation: sourceLocation)
        #expect(result["sends"]?[0]?["status"]?.intValue == 200, "\(result)", sourceLocation: sourceLocation)
        #expect(elapsed < .seconds(10), "the Google flow took \(elapsed)", sourceLocation: sourceLocation)
    }

    @Test func providersAnswerWhileAbandonedCaptureQueriesPileUp() async throws {
        await fillLog(20_000)
        try await abandon(http1: 40, h2Streams: 100, path: "/v1/captures?reveal=true")
        // Timed from here: the FCM flow (an OAuth token, then a push) must be answered while the
        // abandoned work is still queued. urllib gives each request 10 s; it used to take 20 s and more.
        try await expectGoogleFlowAnswered()
        // The control API itself answers again soon, too.
        let health = try await clients.control("GET", "/v1/health", http2: false)
        #expect(health.status == 200, "\(health)")
    }

    @Test func providersAnswerWhileTheControlAPIWorksHard() async throws {
        await fillLog(20_000)
        let port = Int(mocks.settings.controlURL.split(separator: ":").last!)!
        // Clients that wait for the largest capture listings: seconds of rendering each, on the control
        // API's own thread, not on the providers'.
        let waiting = try await offPool {
            try (0..<24).map { _ -> RawSocket in
                let socket = try RawSocket(port: port)
                socket.send(
                    "GET /v1/captures?limit=\(ControlAPI.maxCaptureLimit)&reveal=true HTTP/1.1\r\nhost: x\r\n\r\n")
                return socket
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        try await expectGoogleFlowAnswered()
        for socket in waiting { socket.reset() }
    }
}

/// Abandoned `GET /v1/captures/wait` requests give up their place in the log's waiters.
@Suite struct MockStackAbandonedWaitTests {
    @Test func abandonedWaitsEndBeforeTheirTimeout() async throws {
        let mocks = try await MockStackHarness.start()
        let port = Int(mocks.settings.controlURL.split(separator: ":").last!)!
        let path = "/v1/captures/wait?mock=fcm&count=1&timeoutMs=60000"
        let connections = try await offPool { () -> [RawSocket] in
            let h2 = try RawSocket(port: port)
            var bytes = H2Frames.clientStart
            for i in 0..<20 { bytes += H2Frames.request(stream: UInt32(2 * i + 1), path: path) }
            h2.send(bytes)
            let h1 = try RawSocket(port: port)
            h1.send("GET \(path) HTTP/1.1\r\nhost: x\r\n\r\n")
            return [h2, h1]
        }
        var waiting = 0
        for _ in 0..<500 where waiting < 21 {
            try await Task.sleep(for: .milliseconds(20))
            waiting = mocks.log.waiterCount
        }
        #expect(waiting == 21)
        connections[0].reset()
        shutdown(connections[1].fd, Int32(SHUT_WR))  // FIN; the socket closes the descriptor itself
        var left = waiting
        for _ in 0..<500 where left > 0 {
            try await Task.sleep(for: .milliseconds(20))
            left = mocks.log.waiterCount
        }
        #expect(left == 0, "\(left) abandoned waits still held (their timeout is 60 s)")
    }
}
