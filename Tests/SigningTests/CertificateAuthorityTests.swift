import Foundation
import Signing
import TestSupport
import Testing

/// Certificates issued by `CertificateAuthority`, checked with the independent `openssl` command.
@Suite struct CertificateAuthorityTests {
    static let ca = try! CertificateAuthority.generate()

    /// Writes the CA and an issued leaf into a fresh directory.
    func files(_ issued: IssuedCertificate, ca: CertificateAuthority = Self.ca) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try dir.write("ca.pem", ca.certificatePEM)
        try dir.write("leaf.pem", issued.certificatePEM)
        try dir.write("leaf.key", issued.privateKeyPEM)
        try dir.write("chain.pem", issued.chainPEM)
        return dir
    }

    @Test func leafVerifiesAgainstCA() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let issued = try Self.ca.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        #expect(issued.chainPEM == issued.certificatePEM + Self.ca.certificatePEM)
        let dir = try files(issued)
        let r = try await SigningTestTools.opensslAsync(
            ["verify", "-x509_strict", "-purpose", "sslserver", "-CAfile", "ca.pem", "leaf.pem"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("leaf.pem: OK"), "\(r.stdout) \(r.stderr)")
        // notBefore lies a little in the past, so a peer whose clock is 10 minutes behind still accepts it.
        let earlier = String(Int(Date().timeIntervalSince1970) - 600)
        let r2 = try await SigningTestTools.opensslAsync(
            ["verify", "-attime", earlier, "-CAfile", "ca.pem", "leaf.pem"], in: dir)
        #expect(r2.status == 0, "\(r2.stdout) \(r2.stderr)")
        // A different CA does not verify it.
        let other = TemporaryDirectory()
        try other.write("ca.pem", CertificateAuthority.generate().certificatePEM)
        try other.write("leaf.pem", issued.certificatePEM)
        #expect(
            try await SigningTestTools.opensslAsync(["verify", "-CAfile", "ca.pem", "leaf.pem"], in: other).status != 0)
    }

    @Test func subjectAltNameAndUsage() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let issued = try Self.ca.issue(
            dnsNames: ["localhost", "api.push.apple.com"], ipAddresses: ["127.0.0.1", "::1", "2001:db8::7"])
        let dir = try files(issued)
        let san = try await SigningTestTools.opensslAsync(
            ["x509", "-in", "leaf.pem", "-noout", "-ext", "subjectAltName"], in: dir)
        #expect(san.status == 0, "\(san.stderr)")
        for entry in [
            "DNS:localhost", "DNS:api.push.apple.com", "IP Address:127.0.0.1", "IP Address:0:0:0:0:0:0:0:1",
            "IP Address:2001:DB8:0:0:0:0:0:7",
        ] {
            #expect(san.stdout.contains(entry), "\(entry) not in \(san.stdout)")
        }
        let text = try await SigningTestTools.opensslAsync(["x509", "-in", "leaf.pem", "-noout", "-text"], in: dir)
        #expect(text.stdout.contains("TLS Web Server Authentication"))
        #expect(text.stdout.contains("CA:FALSE"))
        #expect(text.stdout.contains("prime256v1") || text.stdout.contains("P-256"))
        #expect(text.stdout.contains("Subject: CN = localhost"))
        #expect(text.stdout.contains("Issuer: CN = ringcheck test CA"))
        // The key file belongs to the certificate.
        let certKey = try await SigningTestTools.opensslAsync(
            ["x509", "-in", "leaf.pem", "-noout", "-pubkey"], in: dir)
        #expect(certKey.stdout == (try PrivateKey(pem: issued.privateKeyPEM).publicKey().pem()))
        let caText = try await SigningTestTools.opensslAsync(["x509", "-in", "ca.pem", "-noout", "-text"], in: dir)
        #expect(caText.stdout.contains("CA:TRUE"))
        #expect(caText.stdout.contains("Certificate Sign"))
    }

    @Test func serialsAreRandom() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        var serials = Set<String>()
        for _ in 0..<3 {
            let dir = try files(Self.ca.issue(dnsNames: ["a.test"], ipAddresses: []))
            let r = try await SigningTestTools.opensslAsync(["x509", "-in", "leaf.pem", "-noout", "-serial"], in: dir)
            serials.insert(r.stdout)
        }
        #expect(serials.count == 3)
    }

    @Test func rejectsBadNames() throws {
        #expect(throws: SigningError.self) { try Self.ca.issue(dnsNames: [], ipAddresses: []) }
        #expect(throws: SigningError.self) { try Self.ca.issue(dnsNames: ["a,DNS:evil"], ipAddresses: []) }
        let e = try #require(throws: SigningError.self) {
            try Self.ca.issue(dnsNames: ["x"], ipAddresses: ["300.1.1.1"])
        }
        #expect(e.message.contains("300.1.1.1"))
    }

    @Test func issuesConcurrently() async throws {
        let pems = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<8 {
                group.addTask {
                    try Self.ca.issue(dnsNames: ["host\(i).test"], ipAddresses: ["10.0.0.\(i)"]).certificatePEM
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(pems).count == 8)
    }

    @Test func persistentCASurvivesReload() async throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/state/ca"
        let first = try CertificateAuthority.persistent(in: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "/ca.key")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: path + "/ca.pem", encoding: .utf8) == first.certificatePEM)
        let second = try CertificateAuthority.persistent(in: path)
        #expect(second.certificatePEM == first.certificatePEM)
        if await SigningTestTools.hasOpenSSLAsync() {
            let issued = try second.issue(dnsNames: ["localhost"], ipAddresses: [])
            let check = try files(issued, ca: first)
            let r = try await SigningTestTools.opensslAsync(["verify", "-CAfile", "ca.pem", "leaf.pem"], in: check)
            #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        }
        // Half a CA is an error that says what to do.
        try FileManager.default.removeItem(atPath: path + "/ca.key")
        let e = try #require(throws: SigningError.self) { try CertificateAuthority.persistent(in: path) }
        #expect(e.message.contains("ca.key"))
        // A key that does not match the certificate.
        try dir.write("state/ca/ca.key", PrivateKey.generateP256().pkcs8PEM())
        let mismatch = try #require(throws: SigningError.self) { try CertificateAuthority.persistent(in: path) }
        #expect(mismatch.code == .badKey)
    }

    /// A TLS handshake between `openssl s_server` serving the issued chain and `openssl s_client`
    /// trusting only the CA, checking the host name and the IP address.
    @Test func tlsHandshakeWithOpenSSL() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let issued = try Self.ca.issue(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        let dir = try files(issued)
        var server: SigningServerProcess? = nil
        var port = 0
        // A random port may be taken; s_server then exits at once, so try another.
        for _ in 0..<5 where server == nil {
            port = Int.random(in: 20000..<60000)
            let s = try SigningServerProcess([
                "openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", dir.file("chain.pem"), "-key",
                dir.file("leaf.key"),
                "-quiet",
            ])
            try await Task.sleep(for: .milliseconds(200))
            if s.isRunning { server = s } else { s.stop() }
        }
        let running = try #require(server)
        defer { running.stop() }
        func connect(_ verify: [String]) async throws -> ProcessResult {
            try await SigningTestTools.opensslAsync(
                ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", "ca.pem", "-verify_return_error"] + verify,
                in: dir, input: [])
        }
        var byName = try await connect(["-verify_hostname", "localhost", "-servername", "localhost"])
        for _ in 0..<100 where byName.status != 0 && byName.stdout.isEmpty {
            try await Task.sleep(for: .milliseconds(100))  // not listening yet
            byName = try await connect(["-verify_hostname", "localhost", "-servername", "localhost"])
        }
        #expect(
            byName.status == 0 && byName.stdout.contains("Verify return code: 0 (ok)"),
            "\(byName.stdout) \(byName.stderr)")
        let byIP = try await connect(["-verify_ip", "127.0.0.1"])
        #expect(byIP.status == 0 && byIP.stdout.contains("Verify return code: 0 (ok)"), "\(byIP.stdout) \(byIP.stderr)")
        // The same server is rejected for a name the certificate does not carry.
        let wrong = try await connect(["-verify_hostname", "example.com"])
        #expect(wrong.status != 0)
    }
}
