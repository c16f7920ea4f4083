import Foundation
import HTTP
import TestSupport
import Testing

/// A server's own `HandlerExecutor`: handlers run on its threads, the threads end at `shutdown()`,
/// and work arriving later still runs.
@Suite struct HandlerExecutorTests {
    /// Names of this process's threads.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func threadsEndAtShutdownAndLaterWorkStillRuns() async throws {
        let executor = HandlerExecutor(threads: 2, name: "rc-exec-test")
        let before = await Task(executorPreference: executor) { Self.threadName() }.value
        #expect(before == "rc-exec-test")
        #expect(Self.threadNames().filter { $0 == "rc-exec-test" }.count == 2)
        executor.shutdown()
        var left = 2
        for _ in 0..<500 where left > 0 {
            try await Task.sleep(for: .milliseconds(10))
            left = Self.threadNames().filter { $0 == "rc-exec-test" }.count
        }
        #expect(left == 0, "\(left) threads still running after shutdown")
        let after = await Task(executorPreference: executor) { () -> String in
            try? await Task.sleep(for: .milliseconds(5))
            return Self.threadName()
        }.value
        #expect(after != "rc-exec-test")
    }

    @Test func aServerRunsItsHandlersOnTheExecutorItIsGiven() async throws {
        let executor = HandlerExecutor(threads: 1, name: "rc-own-test")
        defer { executor.shutdown() }
        let handler = ClosureHandler { _ in .text(200, Self.threadName()) }
        var config = HTTPServer.Configuration()
        config.handlerExecutor = executor
        let server = HTTPServer(configuration: config, handler: handler)
        try server.start()
        let r = try await runProcess("curl", curlBase + ["http://127.0.0.1:\(server.port)/"])
        server.stop()
        #expect(r.stdout == "rc-own-test", "\(r.stderr)")
    }
}
