import PushMocks
import Testing

/// The settings say what they are: `RINGCHECK_APNS_TOPIC` is the bundle ID, with
/// `RINGCHECK_APNS_BUNDLE_ID` its other name and `RINGCHECK_APNS_VOIP_TOPIC` the VoIP topic.
@Suite struct MockSettingsTests {
    static let settings = MockSettings(
        apnsURL: "https://127.0.0.1:1", apnsSandboxURL: "https://127.0.0.1:2", fcmURL: "https://127.0.0.1:3",
        oauthTokenURL: "https://127.0.0.1:3/token", caFile: "/s/ca.pem", apnsKeyFile: "/s/key.p8",
        apnsKeyID: "ABC123DEFG", apnsTeamID: "DEF123GHIJ", apnsBundleID: "com.example.app",
        fcmServiceAccountFile: "/s/sa.json", fcmProjectID: "p", controlURL: "http://127.0.0.1:4")

    var environment: [String: String] {
        Dictionary(Self.settings.environment.map { ($0.name, $0.value) }) { $1 }
    }

    @Test func theTopicIsTheBundleIDAndTheVoIPTopicHasItsOwnName() {
        #expect(environment["RINGCHECK_APNS_TOPIC"] == "com.example.app")
        #expect(environment["RINGCHECK_APNS_BUNDLE_ID"] == "com.example.app")
        #expect(environment["RINGCHECK_APNS_VOIP_TOPIC"] == "com.example.app.voip")
        #expect(Self.settings.envFile().contains("export RINGCHECK_APNS_VOIP_TOPIC='com.example.app.voip'\n"))
    }

    @Test func readingBackGivesTheSameSettings() throws {
        #expect(try MockSettings(environment: environment) == Self.settings)
        var bundleOnly = environment
        bundleOnly["RINGCHECK_APNS_TOPIC"] = nil
        #expect(try MockSettings(environment: bundleOnly).apnsBundleID == "com.example.app")
        var topicOnly = environment
        topicOnly["RINGCHECK_APNS_BUNDLE_ID"] = nil
        topicOnly["RINGCHECK_APNS_VOIP_TOPIC"] = nil
        #expect(try MockSettings(environment: topicOnly).apnsVoIPTopic == "com.example.app.voip")
    }

    @Test func withoutEitherNameTheBundleIDIsMissing() {
        var neither = environment
        neither["RINGCHECK_APNS_TOPIC"] = nil
        neither["RINGCHECK_APNS_BUNDLE_ID"] = ""
        #expect(throws: MockSettingsError.self) { try MockSettings(environment: neither) }
        do {
            _ = try MockSettings(environment: neither)
        } catch {
            #expect(error.missing == ["RINGCHECK_APNS_TOPIC"])
        }
    }
}
