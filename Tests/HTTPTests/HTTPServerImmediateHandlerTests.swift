import HTTP
import Synchronization
import TestSupport
import Testing

/// Answers `/now` on the event loop and leaves everything else to `handle`, counting both.
final class SplitHandler: HTTPImmediateHandler {
    let counts = Mutex((immediate: 0, handled: 0))

    func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        guard request.path == "/now" else { return nil }
        counts.withLock { $0.immediate += 1 }
        return .text(200, "now \(request.version.rawValue)")
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        counts.withLock { $0.handled += 1 }
        try? await Task.sleep(for: .milliseconds(5))
        return .text(200, "later \(request.version.rawValue)")
    }
}

@Suite struct HTTPServerImmediateHandlerTests {
    @Test func answersOnTheLoopOrFallsBackToHandle() async throws {
        let handler = SplitHandler()
        try await withTestServer(handler: handler) { server in
            let base = "http://127.0.0.1:\(server.port)"
            // One connection, both kinds of request, so answers of both paths share a session.
            let h2 = try await runProcess("nghttp", ["-v", "\(base)/now?1", "\(base)/later", "\(base)/now?2"])
            #expect(h2.status == 0, "\(h2.stderr)")
            #expect(h2.stdout.contains("now HTTP/2"))
            #expect(h2.stdout.contains("later HTTP/2"))
            let h1 = try await runProcess("curl", curlBase + ["\(base)/now", "\(base)/later"])
            #expect(h1.status == 0, "\(h1.stderr)")
            #expect(h1.stdout == "now HTTP/1.1later HTTP/1.1")
        }
        let counts = handler.counts.withLock { $0 }
        #expect(counts.immediate == 3)
        #expect(counts.handled == 2)
    }
}
