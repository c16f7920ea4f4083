import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

/// `await server.stop()` waits for the server to drain without holding a thread of the cooperative pool:
/// more stops than the pool has threads, each waiting out a request in flight, leave the pool free.
@Suite struct HTTPServerAsyncStopTests {
    /// What the handlers, the stops and the watchdog thread share.
    final class Progress: Sendable {
        /// Set once the handlers may answer.
        let release = Atomic<Bool>(false)
        /// Requests that reached their handler.
        let started = Atomic<Int>(0)
        /// Stops that returned.
        let returned = Atomic<Int>(0)
    }

    @Test func stopsWaitingForRequestsInFlightLeaveThePoolFree() async throws {
        // More stops than the pool has threads (one per core): blocking ones would take every thread.
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount + 1
        // Generous, and by the clock: a loaded machine may take long to run anything; only the order of
        // events is checked.
        let patience: Duration = .seconds(120)
        let progress = Progress()
        var configuration = HTTPServer.Configuration()
        // Each stop waits for its request until the handler is released, not for a fixed time.
        configuration.shutdownGraceSeconds = 300
        let servers = (0..<count).map { _ in
            HTTPServer(configuration: configuration) { _ in
                progress.started.add(1, ordering: .relaxed)
                while !progress.release.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(5)) }
                return .text(200, "ok\n")
            }
        }
        for server in servers { try server.start() }
        let ports = servers.map(\.port)
        let sockets = try await offPool {
            try ports.map { port in
                let socket = try RawSocket(port: port)
                socket.send("GET /wait HTTP/1.1\r\nhost: x\r\n\r\n")
                return socket
            }
        }
        let deadline = ContinuousClock.now + patience
        while progress.started.load(ordering: .relaxed) < count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        guard progress.started.load(ordering: .relaxed) == count else {
            // Released first: the servers' stops would otherwise wait out their long grace period.
            progress.release.store(true, ordering: .releasing)
            Issue.record("\(progress.started.load(ordering: .relaxed)) of \(count) requests reached their handler")
            for server in servers { await server.stop() }
            return
        }
        // Should stops hold the pool, nothing below runs until the handlers are released: this thread
        // releases them in the end, so that the test fails rather than hangs.
        Thread.detachNewThread {
            while !progress.release.load(ordering: .acquiring) && ContinuousClock.now < deadline + patience {
                usleep(10_000)
            }
            progress.release.store(true, ordering: .releasing)
        }

        let returnedBeforeRelease = await withTaskGroup(of: Void.self) { group in
            for server in servers {
                group.addTask {
                    await server.stop()
                    progress.returned.add(1, ordering: .relaxed)
                }
            }
            // This task runs on the pool too: it sees every stop begun (a stopping server's port reads 0)
            // while none has returned, as their requests are still in flight.
            let deadline = ContinuousClock.now + patience
            while servers.contains(where: { $0.port != 0 }) && ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            let early = progress.returned.load(ordering: .relaxed)
            progress.release.store(true, ordering: .releasing)
            await group.waitForAll()
            return early
        }
        #expect(progress.returned.load(ordering: .relaxed) == count)
        #expect(
            returnedBeforeRelease == 0,
            "\(returnedBeforeRelease) of \(count) stops had returned before this task ran: they held the pool")
        withExtendedLifetime((servers, sockets)) {}
    }
}
