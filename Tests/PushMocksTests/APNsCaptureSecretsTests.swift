import HTTP
import TestSupport
import Testing

@testable import PushMocks

/// An APNs capture's secrets are its device token (shown shortened) and its provider token (shown as
/// a placeholder), however the mock keeps them, and setting them replaces both.
@Suite struct APNsCaptureSecretsTests {
    let f = MockFixture()

    @Test func aPushHidesItsDeviceTokenAndProviderToken() async throws {
        let other = String(repeating: "7e", count: 32)
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest())
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest(token: other))
        let captures = f.mocks.log.captures()
        try #require(captures.count == 2)
        let placeholder = Redaction.jwtPlaceholder(f.jwt)
        #expect(
            captures[0].secrets == [
                CaptureSecret(value: MockFixture.deviceToken, replacement: "ab12…9f3e"),
                CaptureSecret(value: f.jwt, replacement: placeholder),
            ])
        #expect(
            captures[1].secrets == [
                CaptureSecret(value: other, replacement: "7e7e…7e7e"),
                CaptureSecret(value: f.jwt, replacement: placeholder),
            ])
        let rendered = captures[1].json().serialized()
        #expect(!rendered.contains(other) && !rendered.contains(f.jwt) && rendered.contains("7e7e…7e7e"))

        var changed = captures[1]
        changed.secrets = [CaptureSecret(value: "x", replacement: "y")]
        #expect(changed.secrets == [CaptureSecret(value: "x", replacement: "y")])
        #expect(captures[1].secrets.count == 2)
    }

    @Test func aPushWithoutADeviceTokenHidesOnlyItsProviderToken() async {
        _ = await f.mocks.apnsProduction.handle(f.apnsRequest(path: "/3/device/"))
        #expect(f.mocks.log.captures().last?.secrets.map(\.value) == [f.jwt])
    }
}
