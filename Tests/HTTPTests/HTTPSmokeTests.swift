import TestSupport
import Testing

@testable import HTTP

@Suite struct HTTPSmokeTests {
    @Test func testCertificatesAreMade() async throws {
        let dir = TemporaryDirectory()
        let certs = try await OpenSSLTestCertificates.makeAsync(in: dir)
        let r = try await runProcess("openssl", ["verify", "-CAfile", certs.caFile, certs.certFile])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
