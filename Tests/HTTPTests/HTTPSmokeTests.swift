import TestSupport
import Testing

@testable import HTTP

@Suite struct HTTPSmokeTests {
    @Test func testCertificatesAreMade() throws {
        let dir = TemporaryDirectory()
        let certs = try OpenSSLTestCertificates.make(in: dir)
        let r = try ProcessRunner.run("openssl", ["verify", "-CAfile", certs.caFile, certs.certFile])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
