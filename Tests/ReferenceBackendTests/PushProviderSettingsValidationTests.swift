import Testing

@testable import ReferenceBackend

/// Which push URLs the reference backend accepts before it starts.
@Suite struct PushProviderSettingsValidationTests {
    @Test func httpURLsWithAHostPassOthersDoNot() {
        for good in [
            "https://api.push.apple.com", "http://127.0.0.1:8443", "https://[::1]:9443/base", "https://h/p?q=1",
        ] {
            #expect(PushProviderSettings.isHTTPURL(good), "\(good)")
        }
        for bad in ["notaurl", "http://", "https://:443", "ftp://x", "https://h:0", "https://h:99999", "https://a b"] {
            #expect(!PushProviderSettings.isHTTPURL(bad), "\(bad)")
        }
    }
}
