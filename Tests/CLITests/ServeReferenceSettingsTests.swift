import Foundation
import TestSupport
import Testing

/// `serve-reference` refuses push settings that cannot work (exit 2, naming each), as it refuses
/// missing ones, instead of starting and failing every push.
@Suite struct ServeReferenceSettingsTests {
    @Test func badPushSettingsExitTwoNamingEachOne() async throws {
        let dir = TemporaryDirectory()
        let key = try dir.write("key.p8", "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n")
        let account = try dir.write("account.json", "{}")
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RINGCHECK_") }
        env.merge([
            "RINGCHECK_APNS_URL": "notaurl", "RINGCHECK_APNS_SANDBOX_URL": "https://127.0.0.1:9",
            "RINGCHECK_FCM_URL": "https://127.0.0.1:9", "RINGCHECK_OAUTH_TOKEN_URL": "http://",
            "RINGCHECK_CA_FILE": "/nonexistent", "RINGCHECK_APNS_KEY_FILE": key,
            "RINGCHECK_APNS_KEY_ID": "ABCDEFGHIJ", "RINGCHECK_APNS_TEAM_ID": "ABCDEFGHIJ",
            "RINGCHECK_APNS_TOPIC": "com.example.app", "RINGCHECK_FCM_SERVICE_ACCOUNT": account,
        ]) { $1 }
        let r = try await RingcheckBinary.run(["serve-reference", "--port", "0"], timeout: 30, environment: env)
        #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("RINGCHECK_APNS_URL=notaurl: not an http:// or https:// URL"), "\(r.stderr)")
        #expect(r.stderr.contains("RINGCHECK_OAUTH_TOKEN_URL=http://: not an http"), "\(r.stderr)")
        #expect(r.stderr.contains("RINGCHECK_CA_FILE=/nonexistent: cannot read the file"), "\(r.stderr)")
        #expect(!r.stderr.contains("RINGCHECK_FCM_URL"), "\(r.stderr)")
        #expect(!r.stdout.contains("listening on"))

        env["RINGCHECK_CA_FILE"] = account
        env["RINGCHECK_APNS_URL"] = "https://127.0.0.1:9"
        env["RINGCHECK_OAUTH_TOKEN_URL"] = nil
        let noCertificate = try await RingcheckBinary.run(
            ["serve-reference", "--port", "0"], timeout: 30, environment: env)
        #expect(noCertificate.status == 2)
        #expect(noCertificate.stderr.contains("RINGCHECK_CA_FILE=\(account): holds no PEM certificate"))
    }
}
