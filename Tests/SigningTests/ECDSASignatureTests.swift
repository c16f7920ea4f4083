import Foundation
import Signing
import TestSupport
import Testing

/// Signatures checked by the independent `openssl dgst` command, in both directions.
@Suite struct ECDSASignatureTests {
    let message = Array("ringcheck cross-check message".utf8)

    @Test func ourES256VerifiesWithOpenSSL() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let key = try PrivateKey.generateP256()
        try dir.write("pub.pem", key.publicKey().pem())
        try Data(message).write(to: URL(fileURLWithPath: dir.file("msg")))
        for _ in 0..<5 {
            let raw = try key.sign(message)
            let der = try #require(ECDSASignature.derFromRaw(raw))
            try Data(der).write(to: URL(fileURLWithPath: dir.file("sig.der")))
            let r = try await SigningTestTools.opensslAsync(
                ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "msg"], in: dir)
            #expect(r.status == 0 && r.stdout.contains("Verified OK"), "\(r.stdout) \(r.stderr)")
        }
    }

    @Test func openSSLSignatureVerifiesWithOurs() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let key = try PrivateKey.generateP256()
        try dir.write("key.pem", key.pkcs8PEM())
        try Data(message).write(to: URL(fileURLWithPath: dir.file("msg")))
        let r = try await SigningTestTools.opensslAsync(
            ["dgst", "-sha256", "-sign", "key.pem", "-out", "sig.der", "msg"], in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let der = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("sig.der"))))
        let raw = try ECDSASignature.rawFromDER(der)
        #expect(raw.count == 64)
        #expect(try key.publicKey().verify(signature: raw, message: message))
        #expect(ECDSASignature.derFromRaw(raw) == der)
    }

    @Test func ourRS256VerifiesWithOpenSSL() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let key = try await offPool { try PrivateKey.generateRSA() }
        try dir.write("pub.pem", key.publicKey().pem())
        try Data(message).write(to: URL(fileURLWithPath: dir.file("msg")))
        try Data(key.sign(message)).write(to: URL(fileURLWithPath: dir.file("sig")))
        let r = try await SigningTestTools.opensslAsync(
            ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig", "msg"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("Verified OK"), "\(r.stdout) \(r.stderr)")
    }

    @Test func conversionEdgeCases() throws {
        #expect(ECDSASignature.derFromRaw([UInt8](repeating: 1, count: 63)) == nil)
        // Small r and s (leading zero bytes) round-trip through DER.
        var raw = [UInt8](repeating: 0, count: 64)
        raw[31] = 5
        raw[63] = 0x80
        let der = try #require(ECDSASignature.derFromRaw(raw))
        #expect(try ECDSASignature.rawFromDER(der) == raw)
        let error = try #require(throws: SigningError.self) { try ECDSASignature.rawFromDER([0x30, 0x01]) }
        #expect(error.code == .malformed)
    }
}
