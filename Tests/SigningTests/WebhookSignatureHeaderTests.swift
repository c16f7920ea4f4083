import Signing
import TestSupport
import Testing

@Suite struct WebhookSignatureHeaderTests {
    let secret = Array("whsec_test_secret".utf8)
    let body = Array(#"{"id":"evt_1","type":"call.mobile_push_wakeup"}"#.utf8)

    @Test func headerIsTimestampAndLowercaseHexOfTimestampDotBody() {
        let signature = WebhookSignatureHeader(signing: body, secret: secret, timestamp: 1_775_831_400)
        let expected = HMAC.sha256(key: secret, message: Array("1775831400.".utf8) + body)
        #expect(signature.v1 == SigningTestTools.hex(expected))
        #expect(signature.header == "t=1775831400,v1=\(SigningTestTools.hex(expected))")
    }

    @Test func parsesWhatItRendersAndIgnoresOtherKeys() throws {
        let signature = WebhookSignatureHeader(signing: body, secret: secret, timestamp: 42)
        #expect(WebhookSignatureHeader(header: signature.header) == signature)
        let extended = try #require(WebhookSignatureHeader(header: "v0=abc, t=42 ,v1=\(signature.v1)"))
        #expect(extended == signature)
        #expect(extended.isValid(for: body, secret: secret))
    }

    @Test(arguments: ["", "t=42", "v1=abc", "t=x,v1=abc", "t=42,v1=", "garbage", "t42,v1abc"])
    func refusesMalformedHeaders(header: String) {
        #expect(WebhookSignatureHeader(header: header) == nil)
    }

    @Test func validityNeedsTheSameBytesAndSecret() {
        let signature = WebhookSignatureHeader(signing: body, secret: secret, timestamp: 42)
        #expect(signature.isValid(for: body, secret: secret))
        #expect(!signature.isValid(for: body + [0x20], secret: secret))
        // Not `+ [0x00]`: HMAC pads short keys with zero bytes, so a trailing zero is the same key.
        #expect(!signature.isValid(for: body, secret: secret + [0x01]))
        #expect(!WebhookSignatureHeader(timestamp: 43, v1: signature.v1).isValid(for: body, secret: secret))
    }

    @Test func validVariantSignsNow() throws {
        let sent = WebhookSignatureVariant.valid.sign(body, secret: secret, now: 1000)
        #expect(sent.body == body)
        #expect(sent.signedAt == 1000)
        let header = try #require(sent.headerValue.flatMap(WebhookSignatureHeader.init(header:)))
        #expect(header.timestamp == 1000)
        #expect(header.isValid(for: body, secret: secret))
    }

    @Test func everyOtherVariantFailsVerificationOrTheWindow() throws {
        for name in WebhookSignatureVariant.names where name != "valid" {
            let variant = try #require(WebhookSignatureVariant(name: name))
            let sent = variant.sign(body, secret: secret, now: 1000)
            let parsed = sent.headerValue.flatMap(WebhookSignatureHeader.init(header:))
            let inWindow = parsed.map { abs($0.timestamp - 1000) <= 300 } ?? false
            let accepted = parsed.map { $0.isValid(for: sent.body, secret: secret) } ?? false
            #expect(!(accepted && inWindow), "variant \(name) would be accepted")
            #expect(!variant.isValid)
        }
    }

    @Test func staleAndFutureAreCorrectlySignedOutsideTheWindow() throws {
        let stale = WebhookSignatureVariant.stale(seconds: 301).sign(body, secret: secret, now: 1000)
        let future = try #require(WebhookSignatureVariant(name: "future")).sign(body, secret: secret, now: 1000)
        #expect(stale.signedAt == 699)
        #expect(future.signedAt == 1000 + WebhookSignatureVariant.defaultFutureSeconds)
        for sent in [stale, future] {
            let parsed = try #require(sent.headerValue.flatMap(WebhookSignatureHeader.init(header:)))
            #expect(parsed.isValid(for: sent.body, secret: secret))
        }
        #expect(WebhookSignatureVariant(name: "stale", seconds: 3600) == .stale(seconds: 3600))
    }

    @Test func bodyChangedDiffersInExactlyOneByteAndStaysJSON() throws {
        let sent = WebhookSignatureVariant.bodyChanged.sign(body, secret: secret, now: 1000)
        #expect(sent.body.count == body.count)
        #expect(zip(sent.body, body).filter { $0 != $1 }.count == 1)
        let parsed = try #require(sent.headerValue.flatMap(WebhookSignatureHeader.init(header:)))
        #expect(parsed.isValid(for: body, secret: secret))
        #expect(!parsed.isValid(for: sent.body, secret: secret))
        #expect(String(decoding: sent.body, as: UTF8.self) == #"{"id":"evt_0","type":"call.mobile_push_wakeup"}"#)
    }

    @Test func namesRoundTrip() throws {
        for name in WebhookSignatureVariant.names {
            #expect(try #require(WebhookSignatureVariant(name: name)).name == name)
        }
        #expect(WebhookSignatureVariant(name: "malformed") == nil)
    }
}
