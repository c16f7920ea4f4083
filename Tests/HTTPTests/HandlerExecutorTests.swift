import Foundation
import HTTP
import TestSupport
import Testing

/// A server given its own `HandlerExecutor` runs its handlers on that executor's threads.
@Suite struct HandlerExecutorTests {
    /// Made once: an executor's threads live as long as the process.
    static let executor = HandlerExecutor(threads: 1, name: "rc-own-test")

    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aServerRunsItsHandlersOnTheExecutorItIsGiven() async throws {
        let handler = ClosureHandler { _ in
            let before = Self.threadName()
            try? await Task.sleep(for: .milliseconds(5))
            return .text(200, before + "," + Self.threadName())
        }
        var config = HTTPServer.Configuration()
        config.handlerExecutor = Self.executor
        try await withTestServer(configure: { $0 = config }, handler: handler) { server in
            let r = try await runProcess("curl", curlBase + ["http://127.0.0.1:\(server.port)/"])
            #expect(r.stdout == "rc-own-test,rc-own-test", "\(r.stderr)")
        }
    }
}
