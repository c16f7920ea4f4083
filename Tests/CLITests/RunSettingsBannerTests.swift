import PushMocks
import Testing

@testable import RingcheckCLI

/// The `ringcheck run --target` banner shows the settings the backend actually receives.
@Suite struct RunSettingsBannerTests {
    static let settings = MockSettings(
        apnsURL: "https://127.0.0.1:1", apnsSandboxURL: "https://127.0.0.1:2", fcmURL: "https://127.0.0.1:3",
        oauthTokenURL: "https://127.0.0.1:3/token", caFile: "/s/ca.pem", apnsKeyFile: "/s/key.p8",
        apnsKeyID: "ABC123DEFG", apnsTeamID: "DEF123GHIJ", apnsBundleID: "com.example.app",
        fcmServiceAccountFile: "/s/sa.json", fcmProjectID: "p", controlURL: "http://127.0.0.1:4")

    func banner(_ overrides: [String: String]) -> [Substring] {
        FileTarget.settingsSummary(
            Self.settings, name: "alt", path: "alt.yaml", overrides: overrides, fixedMocks: true
        ).split(separator: "\n")
    }

    @Test func withoutOverridesItNamesTheBundleAndTheVoIPTopic() {
        let lines = banner([:])
        #expect(lines.contains("  RINGCHECK_APNS_TOPIC=com.example.app"))
        #expect(lines.contains("  RINGCHECK_APNS_BUNDLE_ID=com.example.app"))
        #expect(lines.contains("  RINGCHECK_APNS_VOIP_TOPIC=com.example.app.voip"))
    }

    @Test func aTargetOverrideIsWhatItShows() {
        let lines = banner([
            "RINGCHECK_APNS_URL": "https://apns.internal:8443", "RINGCHECK_EXTRA": "x", "DATABASE_PASSWORD": "secret",
        ])
        #expect(
            lines.contains(
                "  RINGCHECK_APNS_URL=https://apns.internal:8443  (set by the target file; the mocks' value is "
                    + "https://127.0.0.1:1)"))
        #expect(!lines.contains("  RINGCHECK_APNS_URL=https://127.0.0.1:1"))
        #expect(lines.contains("  RINGCHECK_EXTRA=x  (set by the target file)"))
        #expect(!lines.joined().contains("secret"))
        #expect(lines.contains("  (and 1 more variable from the target file, not shown)"))
    }
}
