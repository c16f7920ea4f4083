import Foundation
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck serve-reference` as a user meets it: help, bad defects, missing settings.
@Suite struct ServeReferenceCommandTests {
    /// The environment without any RINGCHECK_* variable.
    static let bareEnvironment: [String: String] = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("RINGCHECK_")
    }

    @Test func helpListsEveryDefectWithItsSummary() async throws {
        let result = try await RingcheckBinary.run(["serve-reference", "--help"])
        #expect(result.status == 0)
        for defect in CallxDefect.allCases {
            #expect(result.stdout.contains(defect.name), "\(defect.name) missing from --help")
            let firstWords = defect.summary.split(separator: " ").prefix(4).joined(separator: " ")
            #expect(result.stdout.contains(firstWords), "summary of \(defect.name) missing from --help")
        }
        for option in ["--host", "--port", "--db", "--ring-seconds", "--event-retention", "--users", "--defect"] {
            #expect(result.stdout.contains(option))
        }
    }

    @Test func unknownDefectIsAUsageErrorWithTheList() async throws {
        let result = try await RingcheckBinary.run([
            "serve-reference", "--defect", "zero-ttl", "--defect", "no-such-thing",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown defect 'no-such-thing'"))
        #expect(result.stderr.contains("racy-answer"))
        #expect(result.stderr.contains("keep-dead-tokens"))
    }

    @Test func refusesToStartWithoutPushSettings() async throws {
        let (status, stderr) = try await offPool { try Self.runWithoutSettings() }
        #expect(status == 2)
        for variable in PushProviderSettings.requiredVariables.map(\.name) { #expect(stderr.contains(variable)) }
        #expect(stderr.contains("ringcheck mocks --env-file"))
    }

    /// The server started with nothing but `bareEnvironment` (`env -i`: the runner adds to the test's own),
    /// through the runner's posix_spawn: Foundation's `Process.run` crashed a loaded test process.
    static func runWithoutSettings() throws -> (Int32, String) {
        let r = try ProcessRunner.run(
            "env",
            ["-i"] + bareEnvironment.map { "\($0.key)=\($0.value)" } + [
                RingcheckBinary.path, "serve-reference", "--port", "0",
            ])
        return (r.status, r.stderr)
    }

    @Test func settingsReadTheTopicAsTheBundleIDAndAppendVoip() throws {
        var env = Dictionary(uniqueKeysWithValues: PushProviderSettings.requiredVariables.map { ($0.name, "x") })
        env["RINGCHECK_APNS_TOPIC"] = "com.example.calls"
        env["RINGCHECK_APNS_URL"] = "https://127.0.0.1:9/"
        let settings = try PushProviderSettings(environment: env)
        #expect(settings.apnsBundleID == "com.example.calls")
        #expect(settings.apnsVoIPTopic == "com.example.calls.voip")
        #expect(settings.apnsURL == "https://127.0.0.1:9")
        #expect(settings.caFile == nil && settings.oauthTokenURL == nil && settings.fcmProjectID == nil)
        // The bundle ID by its own name wins; the VoIP topic may be given too.
        env["RINGCHECK_APNS_BUNDLE_ID"] = "com.example.app"
        env["RINGCHECK_APNS_VOIP_TOPIC"] = "com.example.app.voip"
        let named = try PushProviderSettings(environment: env)
        #expect(named.apnsBundleID == "com.example.app" && named.apnsVoIPTopic == "com.example.app.voip")
        env["RINGCHECK_APNS_TOPIC"] = nil
        #expect(try PushProviderSettings(environment: env).apnsBundleID == "com.example.app")
        env["RINGCHECK_APNS_BUNDLE_ID"] = nil
        #expect(throws: PushProviderSettingsError.self) { try PushProviderSettings(environment: env) }
        env["RINGCHECK_APNS_TOPIC"] = "com.example.calls"
        env["RINGCHECK_APNS_KEY_ID"] = ""
        #expect(throws: PushProviderSettingsError.self) { try PushProviderSettings(environment: env) }
    }
}

/// The provider-token renewal rule on its own.
@Suite struct ProviderTokenScheduleTests {
    @Test func reusesUntilFiftyMinutesAndNeverRenewsWithinTwenty() {
        var schedule = ProviderTokenSchedule()
        #expect(schedule.needsNewToken(nowMs: 0))
        schedule.signed(atMs: 0)
        #expect(!schedule.needsNewToken(nowMs: 49 * 60_000))
        #expect(schedule.needsNewToken(nowMs: 50 * 60_000))
        // APNs calls the token expired: replaced, but only once 20 minutes have passed.
        schedule.markRejected()
        #expect(!schedule.needsNewToken(nowMs: 19 * 60_000))
        #expect(schedule.needsNewToken(nowMs: 20 * 60_000))
        schedule.signed(atMs: 20 * 60_000)
        #expect(!schedule.needsNewToken(nowMs: 39 * 60_000))
    }
}
