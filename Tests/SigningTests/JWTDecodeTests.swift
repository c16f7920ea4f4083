import JSON
import Signing
import Testing

@Suite struct JWTDecodeTests {
    let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"ABC"}"#.utf8))
    let payload = Base64URL.encode(Array(#"{"iss":"T","iat":1}"#.utf8))
    let signature = Base64URL.encode([UInt8](repeating: 1, count: 64))

    func malformed(_ token: String) throws -> String {
        let error = try #require(throws: SigningError.self) { try JWT.decode(token) }
        #expect(error.code == .malformed)
        return error.message
    }

    @Test func decodesParts() throws {
        let jwt = try JWT.decode("\(header).\(payload).\(signature)")
        #expect(jwt.algorithm == "ES256")
        #expect(jwt.keyID == "ABC")
        #expect(jwt.claims == ["iss": "T", "iat": 1])
        #expect(jwt.signature == [UInt8](repeating: 1, count: 64))
        #expect(jwt.signingInput == Array("\(header).\(payload)".utf8))
    }

    @Test func wrongPartCount() throws {
        #expect(try malformed("\(header).\(payload)").contains("2 parts"))
        #expect(try malformed("\(header).\(payload).\(signature).x").contains("4 parts"))
        #expect(try malformed("").contains("1 part"))
        #expect(try malformed("abc").contains("expected 3"))
    }

    @Test func badBase64() throws {
        #expect(try malformed("\(header)!.\(payload).\(signature)").contains("header is not valid base64url"))
        #expect(try malformed("\(header).\(payload)+.\(signature)").contains("payload is not valid base64url"))
        #expect(try malformed("\(header).\(payload).a").contains("signature is not valid base64url"))
        #expect(try malformed(".\(payload).\(signature)").contains("header is empty"))
    }

    @Test func notJSON() throws {
        let text = Base64URL.encode(Array("hello".utf8))
        #expect(try malformed("\(text).\(payload).\(signature)").contains("header is not JSON"))
        #expect(try malformed("\(header).\(text).\(signature)").contains("payload is not JSON"))
        let array = Base64URL.encode(Array("[1]".utf8))
        #expect(try malformed("\(header).\(array).\(signature)").contains("payload is a JSON array, not an object"))
    }

    @Test func emptySignatureDecodesButDoesNotVerify() throws {
        let jwt = try JWT.decode("\(header).\(payload).")
        #expect(jwt.signature.isEmpty)
        let key = try PrivateKey.generateP256().publicKey()
        let error = try #require(throws: SigningError.self) { try jwt.verifySignature(with: key) }
        #expect(error.code == .badSignature)
    }
}
