import Foundation
import ReferenceBackend
import Reports
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance
@testable import DialStack

/// A `profile: dialstack` target file: the webhook (path, secret or generated secretEnv), the users' DialStack IDs,
/// the diagnostics for each mistake, and a run of the suite through such a file.
@Suite struct DialStackTargetFileTests {
    static let users = """
        users:
          a: {userId: ua, auth: {bearer: ta}}
          b: {userId: ub, dialstackUserId: user_01b, auth: {bearer: tb}}
          c: [{userId: uc, auth: {bearer: tc}}]
        """

    func load(_ text: String) throws(SuiteLoadError) -> TargetFile {
        try TargetFile.load(text: text, file: "t.yaml")
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func aLiteralSecretAndDialStackUserIds() throws {
        let file = try load(
            "baseURL: http://127.0.0.1:9\nprofile: dialstack\nwebhook: {path: /hooks/ds, secret: whsec_x}\n"
                + Self.users)
        #expect(file.profile == "dialstack")
        #expect(file.webhook == WebhookEndpoint(path: "/hooks/ds", secret: "whsec_x"))
        let target = file.target(defaultAppId: "com.example")
        #expect(target.webhook == file.webhook)
        #expect(target.accounts("b", 0)?.profileUserIds == ["dialstack": "user_01b"])
        #expect(target.accounts("b", 0)?.userId == "ub")
        #expect(target.accounts("c", 0)?.profileUserIds == [:])
    }

    @Test func theWebhookAnswerTimeoutIsTheTargetsOrLongerThanTheSeedsBudget() throws {
        let base = "baseURL: http://127.0.0.1:9\nprofile: dialstack\n"
        let plain = try load(base + "webhook: {path: /w, secret: s}\n" + Self.users)
        #expect(plain.webhook?.answerTimeoutSeconds == 45)
        let own = try load(base + "webhook: {path: /w, secret: s, answerTimeout: 90s}\n" + Self.users)
        #expect(own.webhook?.answerTimeoutSeconds == 90)
        let short = errors(base + "webhook: {path: /w, secret: s, answerTimeout: 10s}\n" + Self.users)
        #expect(
            short.count == 1 && short[0].contains("webhook.answerTimeout: 10s is shorter than the 15 s latency bound"),
            "\(short)")
        let garbage = errors(base + "webhook: {path: /w, secret: s, answerTimeout: soon}\n" + Self.users)
        #expect(
            garbage.count == 1 && garbage[0].contains("webhook.answerTimeout: 'soon' is not a duration"), "\(garbage)")
    }

    /// `webhook.accountId` is the `account_id` of the events ringcheck sends (`acct_ringcheck` without it).
    @Test func theEventsAccountIdIsTheTargetsOrRingchecks() throws {
        let base = "baseURL: http://127.0.0.1:9\nprofile: dialstack\n"
        let plain = try load(base + "webhook: {path: /w, secret: s}\n" + Self.users)
        #expect(plain.webhook?.accountId == "acct_ringcheck")
        let own = try load(
            base + "webhook: {path: /w, secret: s, accountId: acct_01h2xcejqtf2nbrexx3vqjhp41}\n" + Self.users)
        let accountId = try #require(own.webhook?.accountId)
        #expect(accountId == "acct_01h2xcejqtf2nbrexx3vqjhp41")
        let event = DialStackEvent.make(type: DialStackEvent.wakeUpType, userId: "u", omit: [], accountId: accountId)
        #expect(event["account_id"]?.stringValue == accountId)
        let empty = errors(base + "webhook: {path: /w, secret: s, accountId: \"\"}\n" + Self.users)
        #expect(empty.count == 1 && empty[0].contains("webhook.accountId"), "\(empty)")
    }

    @Test func aSecretFromRingchecksEnvironment() throws {
        // A variable the test process already has: setenv here would race other tests' threads reading the
        // environment (a Process.run crashed in memcpy in a loaded run).
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        let file = try load(
            "baseURL: http://127.0.0.1:9\nprofile: dialstack\n"
                + "webhook: {path: /w, secret: \"${PATH}\"}\n" + Self.users)
        #expect(file.webhook?.secret == path)
        let unset = errors(
            "baseURL: http://127.0.0.1:9\nprofile: dialstack\n"
                + "webhook: {path: /w, secret: \"${RINGCHECK_TEST_DS_UNSET}\"}\n" + Self.users)
        #expect(
            unset == [
                "t.yaml:3:29: webhook.secret: RINGCHECK_TEST_DS_UNSET is not set in ringcheck's environment (webhook.secret: ${RINGCHECK_TEST_DS_UNSET})"
            ], "\(unset)")
    }

    @Test func secretEnvGeneratesASecretForTheStartedBackend() throws {
        let text = """
            baseURL: http://127.0.0.1:9
            profile: dialstack
            webhook: {path: /webhooks/dialstack, secretEnv: DIALSTACK_WEBHOOK_SECRET}
            lifecycle: {start: [backend], environment: {OTHER: x}}

            """ + Self.users
        let first = try load(text)
        let secret = try #require(first.webhook?.secret)
        #expect(secret.hasPrefix("whsec_") && secret.count == 38)
        #expect(first.lifecycle?.environment == ["OTHER": "x", "DIALSTACK_WEBHOOK_SECRET": secret])
        #expect(first.webhookSecretVariable == "DIALSTACK_WEBHOOK_SECRET")
        #expect(try load(text).webhook?.secret != secret)  // a fresh one per run
    }

    @Test func mistakesAreReportedWithTheirPlace() {
        let base = "baseURL: http://127.0.0.1:9\n"
        #expect(
            errors(base + "profile: dialstack\n" + Self.users).first?.contains(
                "t.yaml:1:1: webhook: a dialstack target needs webhook: {path: /…, secret: … or secretEnv: NAME}")
                == true)
        #expect(
            errors(base + "profile: dialstak\nwebhook: {path: /w, secret: s}\n" + Self.users).first?.contains(
                "t.yaml:2:10: profile: unknown profile 'dialstak' (did you mean 'dialstack'?") == true)
        #expect(
            errors(base + "profile: dialstack\nwebhook: {path: w, secret: s}\n" + Self.users)
                == ["t.yaml:3:17: webhook.path: 'w' is not a path under baseURL (/…)"])
        #expect(
            errors(base + "profile: dialstack\nwebhook: {path: /w}\n" + Self.users)
                == ["t.yaml:3:10: webhook: missing 'secret' (or 'secretEnv: NAME' for ringcheck to make one)"])
        #expect(
            errors(base + "profile: dialstack\nwebhook: {path: /w, secret: s, secretEnv: S}\n" + Self.users)
                == ["t.yaml:3:32: webhook: give either 'secret' or 'secretEnv', not both"])
        let noStart = errors(base + "profile: dialstack\nwebhook: {path: /w, secretEnv: S}\n" + Self.users)
        #expect(noStart.count == 1 && noStart[0].hasPrefix("t.yaml:3:21: webhook: 'secretEnv' needs lifecycle.start"))
        #expect(
            errors(
                base + "profile: dialstack\nwebhook: {path: /w, secretEnv: 1X}\nlifecycle: {start: [b]}\n" + Self.users)
                == ["t.yaml:3:32: webhook.secretEnv: '1X' is not an environment variable name"])
        #expect(
            errors(base + "webhook: {path: /w, secret: s}\n" + Self.users)
                == ["t.yaml:5:19: users.b: 'dialstackUserId' applies to a target file with profile: dialstack"])
        #expect(
            errors(
                base + "profile: dialstack\nwebhook: {path: /w, secret: s}\n"
                    + Self.users.replacingOccurrences(
                        of: "dialstackUserId", with: "dialstackUserID")
            ).first?.contains("did you mean 'dialstackUserId'") == true)
    }

    /// The suite through a target file: accounts whose IDs differ from DialStack's, mapped by dialstackUserId.
    @Test func theSuiteRunsThroughATargetFileAndTheUserMappingMatters() async throws {
        let stack = try await DialStackTestStack.start()
        defer { Task { await stack.stop() } }
        func engine(mapped: Bool) throws -> ScenarioEngine {
            let users = ["a", "b", "c"].map { name in
                "  \(name): {userId: account-\(name)"
                    + (mapped ? ", dialstackUserId: d0-\(name)" : "") + ", auth: {bearer: token-d0-\(name)}}"
            }.joined(separator: "\n")
            let file = try TargetFile.load(
                text: """
                    \(stack.targetFileHeader)
                    users:
                    \(users)
                    """, file: "t.yaml")
            return try ScenarioEngine(
                target: file.target(defaultAppId: stack.mocks.providers.credentials.bundleID), mocks: stack.mocks,
                catalogue: stack.suite.catalogue, profile: stack.suite.profile)
        }
        let ids = ["wake.every-device", "wake.no-other-user", "signature.wrong-digest", "redelivery.no-second-ring"]
        let chosen = stack.suite.scenarios.filter { ids.contains($0.id) }
        let mapped = try engine(mapped: true)
        let results = await SuiteRunner(engine: mapped, concurrency: 4, repeatCount: 1).run(chosen)
        mapped.shutdown()
        for r in results { #expect(r.attempts.last?.status == .pass, "\(DialStackTestStack.describe([r]))") }
        // Without the mapping data.user_id is the account's own ID, which the backend does not know: nobody rings.
        let unmapped = try engine(mapped: false)
        let wake = await SuiteRunner(engine: unmapped, concurrency: 1, repeatCount: 1).run(
            stack.suite.scenarios.filter { $0.id == "wake.every-device" })
        unmapped.shutdown()
        #expect(DialStackTestStack.failedRequirements(wake) == ["DIALSTACK-WAKE-1"])
    }
}
