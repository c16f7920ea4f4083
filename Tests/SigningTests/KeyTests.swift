import Signing
import TestSupport
import Testing

@Suite struct KeyTests {
    @Test func p256PEMRoundTrip() throws {
        let key = try PrivateKey.generateP256()
        #expect(key.kind == .p256)
        let pem = try key.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let again = try PrivateKey(pem: pem)
        #expect(again.kind == .p256)
        #expect(try again.publicKey().pem() == key.publicKey().pem())
        let publicPEM = try key.publicKey().pem()
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let publicKey = try PublicKey(pem: publicPEM)
        #expect(publicKey.kind == .p256)
        let message = Array("hello".utf8)
        let signature = try again.sign(message)
        #expect(signature.count == 64)
        #expect(publicKey.verify(signature: signature, message: message))
        #expect(!publicKey.verify(signature: signature, message: Array("hellO".utf8)))
        #expect(!publicKey.verify(signature: Array(signature.prefix(63)), message: message))
        #expect(!publicKey.verify(signature: [], message: message))
    }

    @Test func rsaPEMRoundTrip() async throws {
        let key = try await offPool { try PrivateKey.generateRSA(bits: 2048) }
        #expect(key.kind == .rsa)
        let again = try PrivateKey(pem: key.pkcs8PEM())
        let publicKey = try PublicKey(pem: key.publicKey().pem())
        #expect(publicKey.kind == .rsa)
        let signature = try again.sign([1, 2, 3])
        #expect(signature.count == 256)
        #expect(publicKey.verify(signature: signature, message: [1, 2, 3]))
        #expect(!publicKey.verify(signature: signature, message: [1, 2, 4]))
        #expect(!publicKey.verify(signature: Array(signature.dropFirst()), message: [1, 2, 3]))
    }

    @Test func readsOpenSSLTraditionalFormats() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let made = try await SigningTestTools.shellAsync(
            """
            openssl ecparam -name prime256v1 -genkey -noout -out ec.pem 2>/dev/null &&
            openssl genrsa -traditional -out rsa.pem 2048 2>/dev/null &&
            openssl pkey -in ec.pem -pubout -out ec.pub && openssl pkey -in rsa.pem -pubout -out rsa.pub
            """, in: dir)
        try #require(made.status == 0, "\(made.stderr)")
        let ecPEM = try String(contentsOfFile: dir.file("ec.pem"), encoding: .utf8)
        let rsaPEM = try String(contentsOfFile: dir.file("rsa.pem"), encoding: .utf8)
        #expect(ecPEM.contains("BEGIN EC PRIVATE KEY"))
        #expect(rsaPEM.contains("BEGIN RSA PRIVATE KEY"))
        let ec = try PrivateKey(pem: ecPEM)
        let rsa = try PrivateKey(pem: rsaPEM)
        #expect(ec.kind == .p256)
        #expect(rsa.kind == .rsa)
        let ecPub = try PublicKey(pem: String(contentsOfFile: dir.file("ec.pub"), encoding: .utf8))
        let rsaPub = try PublicKey(pem: String(contentsOfFile: dir.file("rsa.pub"), encoding: .utf8))
        #expect(ecPub.verify(signature: try ec.sign([42]), message: [42]))
        #expect(rsaPub.verify(signature: try rsa.sign([42]), message: [42]))
    }

    @Test func rejectsUnsupportedAndBadKeys() async throws {
        try #require(await SigningTestTools.hasOpenSSLAsync())
        let dir = TemporaryDirectory()
        let made = try await SigningTestTools.shellAsync(
            """
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem &&
            openssl genpkey -algorithm ED25519 -out ed.pem &&
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -aes-128-cbc -pass pass:secret -out enc.pem
            """, in: dir)
        try #require(made.status == 0, "\(made.stderr)")
        for (file, code) in [("p384.pem", SigningError.Code.badKey), ("ed.pem", .badKey), ("enc.pem", .badKey)] {
            let pem = try String(contentsOfFile: dir.file(file), encoding: .utf8)
            let error = try #require(throws: SigningError.self) { try PrivateKey(pem: pem) }
            #expect(error.code == code, "\(file): \(error)")
        }
        let p384 = try #require(throws: SigningError.self) {
            try PrivateKey(pem: String(contentsOfFile: dir.file("p384.pem"), encoding: .utf8))
        }
        #expect(p384.message.contains("P-256"))
        let notPEM = try #require(throws: SigningError.self) { try PrivateKey(pem: "hello") }
        #expect(notPEM.code == .malformed)
        let garbage = try #require(throws: SigningError.self) {
            try PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
        }
        #expect(garbage.code == .badKey)
        #expect(garbage.message.contains("PEM_read_bio_PrivateKey"))
        #expect(throws: SigningError.self) {
            try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----")
        }
        #expect(throws: SigningError.self) { try PublicKey(p256X: [1], y: [2]) }
        // Coordinates that are not on the curve.
        #expect(throws: SigningError.self) {
            try PublicKey(p256X: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32))
        }
    }
}
