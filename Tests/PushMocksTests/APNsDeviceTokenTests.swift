import HTTP
import TestSupport
import Testing

@testable import PushMocks

/// The device token read from a request target in one pass over its bytes, and the token format check,
/// agree with what the general code (by `Character`) finds, whatever the target holds.
@Suite struct APNsDeviceTokenTests {
    let f = MockFixture()

    @Test(arguments: [
        "/3/device/" + MockFixture.deviceToken, "/3/device/" + MockFixture.deviceToken + "?x=1", "/3/device",
        "/3/device/", "/3/device?x", "/3/devic", "/3/devices/ab", "/4/device/ab", "", "?", "/3/device/ab?c?d",
        "/3/device/ab\tcd", "/3/device/ab\u{1}cd", "/3/device/ab\u{7f}", "/3/device/é", "/3/device/e\u{301}?q",
        "/3/devicé/ab", "/3/device/a/b",
    ])
    func tokenInTargetIsTheTokenInItsPath(target: String) {
        #expect(f.mocks.apnsProduction.deviceToken(inTarget: target) == APNsMock.deviceToken(inPath: pathOf(target)))
    }

    @Test func wellFormedTokensAreEvenHexOf64To200Digits() {
        let hex = Array("0123456789abcdefABCDEF".utf8)
        for byte in UInt8.min...UInt8.max {
            let token = String(decoding: [UInt8](repeating: UInt8(ascii: "0"), count: 63) + [byte], as: UTF8.self)
            #expect(APNsMock.isWellFormedDeviceToken(token) == hex.contains(byte), "byte \(byte)")
        }
        #expect(APNsMock.isWellFormedDeviceToken(String(repeating: "ab", count: 100)))
        #expect(!APNsMock.isWellFormedDeviceToken(String(repeating: "ab", count: 101)))
        #expect(!APNsMock.isWellFormedDeviceToken(String(repeating: "ab", count: 31)))
        #expect(!APNsMock.isWellFormedDeviceToken(String(repeating: "ab", count: 32) + "a"))
    }

    @Test func shortTokensKeepTheFirstAndLastFourCharacters() {
        #expect(Redaction.shortToken(MockFixture.deviceToken) == "ab12…9f3e")
        #expect(Redaction.shortToken("abcdefghijk") == "abcd…hijk")
        #expect(Redaction.shortToken("abcdefghij") == "ab…")
        #expect(Redaction.shortToken("éééééééééééé") == "éééé…éééé")
    }
}
