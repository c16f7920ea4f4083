import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct ManualTimingTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RC_TIMING"] != nil)) func timing() async throws {
        let t0 = Date()
        var config = HTTPServer.Configuration()
        config.idleTimeoutSeconds = 30
        let server = HTTPServer(configuration: config) { req in
            print("handler", Date().timeIntervalSince(t0), req.arrivalMs)
            return .text(200, "x")
        }
        try server.start()
        print("started", Date().timeIntervalSince(t0))
        let r = try await runProcess("curl", ["-sS", "http://127.0.0.1:\(server.port)/echo"])
        print("curl", Date().timeIntervalSince(t0), r.status)
        try await offPool { server.stop() }
        print("stopped", Date().timeIntervalSince(t0), Date().timeIntervalSince1970)
    }
}
