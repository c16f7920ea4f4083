import Foundation
import PushMocks
import Testing

/// `Redaction.redactingOutput`: each kind of secret a backend may print is hidden by its shape, and
/// ordinary output (short hex, words, URLs) comes through unchanged.
@Suite struct RedactionOutputTests {
    static func base64URL(_ s: String) -> String {
        Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// An APNs provider token shaped JWT with `kid` ABC123DEFG (the signature is arbitrary base64url).
    static let jwt =
        base64URL(#"{"alg":"ES256","kid":"ABC123DEFG"}"#) + "." + base64URL(#"{"iss":"TEAM123456","iat":1700000000}"#)
        + ".MEUCIQDx7d_3nV9-kq2Zb8wPq1yT0aLr5sJm4cN6hG2fK8eR3AIgZ"
    static let deviceToken = String(repeating: "a1b2c3d4", count: 8)
    static let accessToken = "ya29.mock-" + String(repeating: "Qx7Z9k", count: 10) + "abcd"

    @Test func aJWTIsReplacedByItsPlaceholder() {
        for text in ["signed \(Self.jwt) ok", "token=\(Self.jwt)&x=1", "sent \(Self.jwt).", "\(Self.jwt)"] {
            let out = Redaction.redactingOutput(text)
            #expect(!out.contains("eyJ"), "\(out)")
            #expect(out.contains("<redacted jwt kid=ABC123DEFG>"), "\(out)")
        }
        #expect(Redaction.redactingOutput("token=\(Self.jwt)&x=1") == "token=<redacted jwt kid=ABC123DEFG>&x=1")
        #expect(Redaction.redactingOutput("sent \(Self.jwt).") == "sent <redacted jwt kid=ABC123DEFG>.")
    }

    @Test func aGoogleAccessTokenIsReplaced() {
        let out = Redaction.redactingOutput("got \(Self.accessToken). expires in 3599 s")
        #expect(out == "got <redacted>. expires in 3599 s")
        #expect(Redaction.redactingOutput("a real one: ya29.a0AfB_byC-d.e_f") == "a real one: <redacted>")
        // The prefix alone, as in a sentence about tokens, is not a token.
        #expect(Redaction.redactingOutput("tokens start with ya29. here") == "tokens start with ya29. here")
    }

    @Test func aDeviceTokenIsShortened() {
        let out = Redaction.redactingOutput("push to \(Self.deviceToken) failed")
        #expect(out == "push to a1b2…c3d4 failed")
        let upper = String(repeating: "0F", count: 100)
        #expect(Redaction.redactingOutput("token:\(upper)\n") == "token:0F0F…0F0F\n")
        let long = String(repeating: "f", count: 300)
        #expect(Redaction.redactingOutput("[\(long)]") == "[ffff…ffff]")
    }

    @Test func theCredentialAfterBearerOnAnAuthorizationLineIsReplaced() {
        #expect(
            Redaction.redactingOutput("> Authorization: Bearer s3cr3t-Opaque_token~+/==\n< HTTP/1.1 200")
                == "> Authorization: Bearer <redacted>\n< HTTP/1.1 200")
        #expect(
            Redaction.redactingOutput(#"headers={"authorization": "bearer  abc.def"}"#)
                == #"headers={"authorization": "bearer  <redacted>"}"#)
        #expect(Redaction.redactingOutput("AUTHORIZATION:BEARER\tx1") == "AUTHORIZATION:BEARER\t<redacted>")
        // A JWT or access token keeps its own placeholder (with the kid) rather than a second one.
        #expect(
            Redaction.redactingOutput("authorization: bearer \(Self.jwt)")
                == "authorization: bearer <redacted jwt kid=ABC123DEFG>")
        #expect(
            Redaction.redactingOutput("Authorization: Bearer \(Self.accessToken)") == "Authorization: Bearer <redacted>"
        )
        // Elsewhere `bearer` is an ordinary word.
        #expect(Redaction.redactingOutput("the bearer token is checked") == "the bearer token is checked")
        #expect(
            Redaction.redactingOutput("authorization failed\nthe bearer token is checked")
                == "authorization failed\nthe bearer token is checked")
    }

    @Test func aPrivateKeyIsRemoved() {
        let key = """
            -----BEGIN PRIVATE KEY-----
            MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg8Jk3Zq2Yp1vQe4rT
            hRANCAASx9wQ7fLk2mB1aPZ3cVYt8uG4nR6sK0jE5dH1oW2yX9bA3vC7eD8fG1hI
            -----END PRIVATE KEY-----
            """
        let out = Redaction.redactingOutput("loading key\n\(key)\nlistening on :8443")
        #expect(out == "loading key\n<redacted private key>\nlistening on :8443")
        // The tail of a log can begin inside the key: what comes before its END line goes too.
        let tail =
            "hRANCAASx9wQ7fLk2mB1aPZ3cVYt8uG4nR6sK0jE5dH1oW2yX9bA3vC7eD8fG1hI\n-----END EC PRIVATE KEY-----\nready"
        #expect(Redaction.redactingOutput(tail) == "<redacted private key>\nready")
        // A certificate is public: it stays.
        let cert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"
        #expect(Redaction.redactingOutput(cert) == cert)
    }

    @Test func ordinaryOutputIsUntouched() {
        let text = """
            2024-05-01T10:00:00Z INFO listening on http://127.0.0.1:8080/v1/calls
            build 9fceb02d0ae598e95dc970b74767f19372d61af8 (git, 40 hex digits) ok
            call 123e4567-e89b-12d3-a456-426614174000 ringing; sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709
            headers: {"content-type": "application/json", "apns-push-type": "voip"} — naïve ünïcode ✓
            eyJ alone is no token; a.b.c neither; ya29 without a dot neither
            """
        #expect(Redaction.redactingOutput(text) == text)
        #expect(Redaction.redactingOutput("") == "")
        // 63 hex digits are not a device token.
        let short = String(repeating: "ab", count: 31) + "c"
        #expect(Redaction.redactingOutput(short) == short)
    }

    @Test func everyKindInOneText() {
        let text = """
            token \(Self.deviceToken)
            provider \(Self.jwt)
            oauth \(Self.accessToken)
            Authorization: Bearer opaque123
            """
        let out = Redaction.redactingOutput(text)
        for secret in [Self.deviceToken, Self.jwt, Self.accessToken, "opaque123"] {
            #expect(!out.contains(secret), "\(out)")
        }
        #expect(
            out == """
                token a1b2…c3d4
                provider <redacted jwt kid=ABC123DEFG>
                oauth <redacted>
                Authorization: Bearer <redacted>
                """)
    }
}
