import JSON
import Signing
import TestSupport
import Testing

/// Published test vectors: SHA-256 (FIPS 180-2), HMAC-SHA256 (RFC 4231) and JWS (RFC 7515 Appendix A).
@Suite struct KnownAnswerTests {
    @Test func sha256OfABC() {
        #expect(
            SigningTestTools.hex(Digest.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SigningTestTools.hex(Digest.sha256([]))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    // RFC 4231 test cases 1–4, 6 and 7 (case 5 is a truncated output and does not apply).
    static let rfc4231: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xCD, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test(arguments: 0..<6)
    func hmacSHA256RFC4231(index: Int) {
        let v = Self.rfc4231[index]
        #expect(SigningTestTools.hex(HMAC.sha256(key: v.key, message: v.data)) == v.mac)
    }

    /// RFC 7515 A.1: an HS256 JWS with the given symmetric JWK.
    @Test func rfc7515A1HS256() throws {
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let k = try #require(
            Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"))
        let jwt = try JWT.decode(token)
        try jwt.verifySignature(hmacSecret: k)
        #expect(jwt.algorithm == "HS256")
        #expect(jwt.stringClaim("iss") == "joe")
        #expect(jwt.numericDate("exp") == 1_300_819_380)
        #expect(jwt.claims["http://example.com/is_root"] == .bool(true))
        let error = try #require(throws: SigningError.self) { try jwt.verifySignature(hmacSecret: Array(k.dropLast())) }
        #expect(error.code == .badSignature)
    }

    /// RFC 7515 A.3: an ES256 JWS verified with the public key built from the JWK's x and y.
    @Test func rfc7515A3ES256() throws {
        let token =
            "eyJhbGciOiJFUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        let x = try #require(Base64URL.decode("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"))
        let y = try #require(Base64URL.decode("x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"))
        let key = try PublicKey(p256X: x, y: y)
        #expect(key.kind == .p256)
        let jwt = try JWT.decode(token)
        #expect(jwt.signature.count == 64)
        try jwt.verifySignature(with: key)
        #expect(jwt.stringClaim("iss") == "joe")

        // The same JWS with one signature bit flipped must fail.
        var bad = jwt
        bad.signature[10] ^= 0x01
        let error = try #require(throws: SigningError.self) { try bad.verifySignature(with: key) }
        #expect(error.code == .badSignature)
    }
}
