import Foundation
import JSON
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance

/// A user's feed is read with an installation the scenario registered first, as a real app's is: a
/// backend that refuses installations it never saw must not turn into a MUST failure in one scenario
/// and a harness error in others.
@Suite(.serialized) struct FeedInstallationTests {
    @Test func theUsersWhoseOwnFeedIsReadAreFoundInEveryStep() throws {
        let suite = try Suite.load(directory: ConformanceFixtures.callxSuite)
        #expect(suite.scenario("events.unknown-cursor-gap")?.feedReadingUsers == ["a"])
        #expect(suite.scenario("restart.ringing-call-survives")?.feedReadingUsers == ["a"])
        // Read only through a device's installation (b-phone), which the scenario registers anyway.
        #expect(suite.scenario("events.retention-gap")?.feedReadingUsers == [])
        #expect(suite.scenario("payload.apns-invitation")?.feedReadingUsers == [])
    }

    /// The caller's installation is registered before the first step, and its feed read with that one.
    @Test func theCallersInstallationIsRegisteredBeforeItsFeedIsRead() async throws {
        let stack = try await EngineTestStack.start()
        let results = await stack.run(["events.unknown-cursor-gap", "basic.answer-and-hang-up"])
        await stack.stop()
        for (scenario, attempts) in results {
            let o = try #require(attempts.first)
            #expect(o.status == .pass, "\(scenario.id): \(o.failures.map(\.actual))")
            let requests = o.timeline.filter { $0.kind == .request }.map(\.summary)
            let register = requests.firstIndex {
                $0.hasPrefix("PUT /v1/installations/") && $0.hasSuffix("-a-feed/push-tokens/apnsVoip")
            }
            let read = requests.firstIndex { $0.hasPrefix("GET /v1/call-events?") }
            let first = try #require(register, "\(scenario.id): \(requests)")
            // Set-up: only the devices' registrations come before it.
            #expect(
                requests[..<first].allSatisfy { $0.hasPrefix("PUT /v1/installations/") },
                "\(scenario.id): registered before every step: \(requests)")
            #expect(read.map { $0 > first } ?? true, "\(scenario.id): \(requests)")
        }
    }
}
