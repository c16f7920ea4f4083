import AllProfiles
import Callx
import Conformance
import Foundation
import PushMocks
import Reports
import Synchronization
import TestSupport
import Testing

@testable import RingcheckCLI

/// No report shows a secret the run used: the device tokens the engine registered, the provider JWTs
/// and OAuth access tokens the backend sent the mocks, and the signing keys. The secrets are collected
/// from the mocks after each scenario (the values themselves, not their shapes) and looked for in the
/// console, JUnit, JSON, HTML and Markdown reports of the run.
@Suite struct ReportSecretsTests {
    static let suiteDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("suites/callx").path

    /// Every secret in the mocks' records: (what it is, its value).
    static func secrets(_ mocks: MockStack) -> [(String, String)] {
        var out: [(String, String)] = []
        for device in mocks.providers.registry.all { out.append(("a device token", device.token)) }
        for grant in mocks.providers.tokens.all { out.append(("an access token", grant.token)) }
        for capture in mocks.log.captures() {
            if let token = capture.deviceToken { out.append(("a device token", token)) }
            if let target = capture.fcmTarget { out.append(("an FCM token", target.value)) }
            if let auth = capture.headers["authorization"] {
                let credential = auth.split(separator: " ").last.map(String.init) ?? auth
                out.append((credential.hasPrefix("eyJ") ? "a provider JWT" : "an access token", credential))
            }
            let body = String(decoding: capture.body, as: UTF8.self)
            if let range = body.range(of: "assertion=") {
                let jwt = body[range.upperBound...].prefix { $0 != "&" }
                out.append(("an OAuth assertion JWT", String(jwt)))
            }
        }
        // A line from the middle of each private key (PEM, and the service account's JSON form).
        for path in [mocks.settings.apnsKeyFile, mocks.settings.fcmServiceAccountFile] {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let lines = text.replacingOccurrences(of: "\\n", with: "\n").split(separator: "\n")
            for line in lines where line.count >= 40 && !line.contains("-----") && !line.contains("\"") {
                out.append(("private key material of \(path)", String(line)))
            }
        }
        return out.filter { $0.1.count >= 12 }
    }

    @Test func noReportFormatShowsASecretTheRunUsed() async throws {
        let dir = TemporaryDirectory()
        let suite = try Suite.load(directory: Self.suiteDirectory)
        let picked = ScenarioSelection(patterns: ["tokens.*", "payload.*", "arbitration.two-devices-race"], tags: [])
        let (scenarios, _) = picked.apply(to: suite.scenarios)
        #expect(scenarios.count >= 4)
        var userNames: [String] = []
        for s in scenarios { for u in s.allUsers where !userNames.contains(u) { userNames.append(u) } }
        let cleanup = RunCleanup()
        // A defect that fails a payload check, so failure evidence is rendered too.
        let embedded = try await EmbeddedReference.start(
            defects: [.apnsExpiration30], runs: scenarios.count, userNames: userNames,
            log: dir.file("backend.log"), cleanup: cleanup)
        let engine = try ScenarioEngine(target: embedded.target, mocks: embedded.mocks, catalogue: suite.catalogue)
        let collected = Mutex<[(String, String)]>([])
        let mocks = embedded.mocks
        let results = await SuiteRunner(engine: engine, concurrency: 4).run(scenarios) { _, _ in
            let found = Self.secrets(mocks)
            collected.withLock { $0 += found }
        }
        let secrets = collected.withLock { $0 } + Self.secrets(mocks)
        engine.shutdown()
        await cleanup.run()

        let run = RunResult(
            ringcheckVersion: "test", suite: SuiteDescription(id: "callx", version: "1", title: "t"),
            target: embedded.target.name, startedAt: Date(), finishedAt: Date(),
            requirements: suite.catalogue.requirementInfos,
            scenarios: results.map { ScenarioResult.combining($0.attempts) },
            shard: nil, strict: false)
        #expect(
            run.scenarios.contains {
                if case .fail = $0.status { return true }
                return false
            }, "the defect should fail a scenario")
        #expect(secrets.contains { $0.0 == "a device token" })
        #expect(secrets.contains { $0.0 == "a provider JWT" })
        #expect(secrets.contains { $0.0 == "an access token" })
        #expect(secrets.contains { $0.0.hasPrefix("private key material") })
        // Shortened tokens are shown, so the reports do mention the devices.
        let json = ReportFormat.json.render(run)
        #expect(json.contains("registerToken") || json.contains("push-tokens"))
        for format in ReportFormat.allCases {
            let text = format.render(run)
            var leaks: [String: Int] = [:]
            for (what, value) in secrets where text.contains(value) { leaks[what, default: 0] += 1 }
            #expect(leaks.isEmpty, "\(format.rawValue) report shows \(leaks)")
        }
    }
}
