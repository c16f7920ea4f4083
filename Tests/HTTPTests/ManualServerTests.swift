import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct ManualServerTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RC_MANUAL"] != nil)) func serveForAWhile() async throws {
        var plain = HTTPServer.Configuration(port: 18080)
        plain.idleTimeoutSeconds = 5
        var tls = HTTPServer.Configuration(port: 18443)
        tls.tls = try await ServerTestCertificates.tls()
        print("CA", try await ServerTestCertificates.get().caFile)
        let a = HTTPServer(configuration: plain, handler: ServerTestHandler())
        let b = HTTPServer(configuration: tls, handler: ServerTestHandler())
        var minimal = HTTPServer.Configuration(port: 18445)
        minimal.tls = tls.tls
        let c = HTTPServer(configuration: minimal) { req in
            HTTPResponse(status: 200, headers: ["apns-id": req.headers["apns-id"] ?? "77B2B6A6-5E7D-4C1F-9D53-1D7A6A3F0C11"])
        }
        try a.start()
        try b.start()
        try c.start()
        try await Task.sleep(nanoseconds: UInt64(Double(ProcessInfo.processInfo.environment["RC_MANUAL"]!)! * 1e9))
        try await offPool { a.stop(); b.stop(); c.stop() }
    }
}
