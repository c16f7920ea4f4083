import PushMocks
import TestSupport
import Testing

@testable import Conformance
@testable import DialStack

/// `expectWakeUps` counts only this scenario's pushes: with a target's fixed accounts, user b's phone also gets the
/// pushes of another scenario's webhooks, and one carrying only that scenario's call (`RunContext.claimedCalls`)
/// stands in for none of this scenario's calls. A push carrying no claimed call cannot be told whose: it stands in
/// (DIALSTACK-PUSH-1 charges it), so a backend that leaves the call ID out is not charged DIALSTACK-WAKE-1 too.
extension DialStackInvariantTests {
    static let sharedPhone = DeviceIdentity(
        name: "b-phone", user: "b", kind: .apnsVoip, environment: .production, installationId: "i-b",
        tokens: [MockFixture.deviceToken])

    /// What `expectWakeUps` finds now on b's phone for scenario A's call, B's call claimed too (no wait).
    func wakeUpsOfScenarioA() async -> (missing: Set<String>, untied: Int) {
        await WakeUpsStep.missing(
            [Self.callId], on: Self.sharedPhone, in: f.mocks.log, claimed: { [Self.callId, Self.otherCallId] },
            until: .now)
    }

    @Test func anotherScenariosPushStandsInForNoneOfThisScenariosCalls() async {
        // The backend answered A's webhook with a push carrying B's call, and nothing of A's.
        _ = await apns([("call_id", .string(Self.otherCallId))])
        let found = await wakeUpsOfScenarioA()
        #expect(found.missing == [Self.callId], "\(found)")
        #expect(found.untied == 0, "B's push stands in for A's call: \(found)")
        // A push carrying no call ID at all cannot be told whose: it stands in.
        _ = await apns([("call_id", nil)])
        #expect(await wakeUpsOfScenarioA().untied == 1)
        // A's own push, under any key, is A's.
        _ = await apns([("call_id", nil), ("id", .string(Self.callId))])
        let own = await wakeUpsOfScenarioA()
        #expect(own.missing.isEmpty, "\(own)")
    }
}
