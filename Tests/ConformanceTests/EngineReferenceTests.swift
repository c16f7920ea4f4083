import Conformance
import Foundation
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// The engine against the in-process reference backend: the whole Callx suite passes with no
/// defect, a defect is charged to its requirement, and capabilities and time limits are honoured.
@Suite(.serialized) struct EngineReferenceTests {
    @Test func wholeSuitePassesAgainstTheReferenceBackend() async throws {
        let (results, scenarioCount) = try await SuiteRunGate.exclusive {
            let stack = try await EngineTestStack.start()
            let results = await stack.run()
            await stack.stop()
            return (results, stack.suite.scenarios.count)
        }
        #expect(results.count == scenarioCount)
        for (scenario, attempts) in results {
            let o = attempts[0]
            // This stack cannot restart its backend; `RunLifecycleTests` runs those scenarios through the CLI.
            let skipped =
                scenario.needs.contains(.restart) && o.status == .notApplicable(reason: "the target lacks restart")
            #expect(
                o.status == .pass || skipped,
                "\(scenario.id): \(o.status) \(o.failures.map { "\($0.requirement ?? "-") \($0.check): \($0.actual)" })"
            )
        }
        let spreads = results.flatMap { $0.attempts.flatMap(\.raceSpreadsMs) }
        #expect(!spreads.isEmpty)
    }

    @Test func aDefectIsChargedToItsRequirementWithEvidence() async throws {
        let stack = try await EngineTestStack.start(defects: [.apnsExpiration30])
        let results = await stack.run(["payload.apns-invitation"])
        await stack.stop()
        let o = try #require(results.first?.attempts.first)
        #expect(o.status == .fail)
        let f = try #require(o.failures.first { $0.requirement == "CALLX-APNS-5" })
        #expect(f.level == .must)
        #expect(!f.evidence.isEmpty)
        // Evidence never shows a provider token or a bearer in full.
        for e in o.failures.flatMap(\.evidence) {
            #expect(!e.text.contains("token-t"))
            #expect(!e.text.lowercased().contains("bearer ey"))
        }
        #expect(o.timeline.contains { $0.kind == .push })
    }

    @Test func missingCapabilityIsNotApplicableWithTheReason() async throws {
        let stack = try await EngineTestStack.start(capabilities: [.mediaSession])
        let results = await stack.run(["delivery.retry-through-503", "media.winner-and-caller-only"])
        await stack.stop()
        let byId = Dictionary(results.map { ($0.scenario.id, $0.attempts[0]) }, uniquingKeysWith: { a, _ in a })
        #expect(byId["delivery.retry-through-503"]?.status == .notApplicable(reason: "the target lacks faults"))
        #expect(byId["media.winner-and-caller-only"]?.status == .pass)
    }

    @Test func retentionScenariosNeedADeclaredRetention() async throws {
        // The capability alone is not enough: overflowing the feed needs the number.
        let stack = try await EngineTestStack.start(eventRetention: nil)
        let results = await stack.run(["events.retention-gap"])
        await stack.stop()
        #expect(results.first?.attempts.first?.status == .notApplicable(reason: "the target lacks eventRetention"))
    }

    @Test func aScenarioPastItsTimeLimitIsATimeoutNeverAPass() async throws {
        let stack = try await EngineTestStack.start(scenarioTimeout: .milliseconds(300))
        let results = await stack.run(["basic.cancel-before-answer"])
        await stack.stop()
        let o = try #require(results.first?.attempts.first)
        guard case .timeout = o.status else {
            Issue.record("expected a timeout, got \(o.status)")
            return
        }
    }

    @Test func anUnreachableBackendIsAHarnessErrorNotAFailure() async throws {
        let stack = try await EngineTestStack.start()
        await stack.server.stop()
        let results = await stack.run(["tokens.delete"])
        await stack.stop()
        let o = try #require(results.first?.attempts.first)
        guard case .error = o.status else {
            Issue.record("expected an error, got \(o.status)")
            return
        }
        #expect(o.failures.isEmpty)
    }

    @Test func eachRunGetsItsOwnAccountsAndDevices() async throws {
        let stack = try await EngineTestStack.start()
        // Literal operation IDs and callIds in these scenarios would collide if runs shared accounts.
        let results = await stack.run(["idempotency.create-retry", "idempotency.create-conflict"], repeatCount: 3)
        await stack.stop()
        for (scenario, attempts) in results {
            #expect(attempts.count == 3)
            #expect(attempts.allSatisfy { $0.status == .pass }, "\(scenario.id): \(attempts.map(\.status))")
        }
    }
}
