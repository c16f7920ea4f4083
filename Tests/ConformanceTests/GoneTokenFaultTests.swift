import PushMocks
import Testing

@testable import Conformance

/// Which provider answers say a token is gone: after them a create the backend refuses with 404
/// (the callee has no device left) is evidence of the cleanup, not a set-up failure.
@Suite struct GoneTokenFaultTests {
    static func plan(_ mock: MockProviderID, _ status: Int, reason: String? = nil, errorCode: String? = nil)
        -> FaultPlan
    {
        FaultPlan(mock: mock, respond: FaultResponse(status: status, reason: reason, errorCode: errorCode))
    }

    @Test func goneAndMalformedTokensCount() {
        #expect(ScenarioRun.marksTokenGone(Self.plan(.apns, 410, reason: "Unregistered")))
        #expect(ScenarioRun.marksTokenGone(Self.plan(.apns, 400, reason: "BadDeviceToken")))
        #expect(ScenarioRun.marksTokenGone(Self.plan(.fcm, 404, errorCode: "UNREGISTERED")))
        #expect(ScenarioRun.marksTokenGone(Self.plan(.fcm, 400, errorCode: "INVALID_ARGUMENT")))
    }

    @Test func passingFailuresDoNot() {
        // A refusal that says nothing about the token leaves it registered: a 404 create is then a failure.
        #expect(!ScenarioRun.marksTokenGone(Self.plan(.apns, 503)))
        #expect(!ScenarioRun.marksTokenGone(Self.plan(.apns, 429, reason: "TooManyRequests")))
        #expect(!ScenarioRun.marksTokenGone(Self.plan(.apns, 400, reason: "BadTopic")))
        #expect(!ScenarioRun.marksTokenGone(Self.plan(.apns, 404, reason: "BadPath")))
        #expect(!ScenarioRun.marksTokenGone(FaultPlan(mock: .apns, latencyMs: 100)))
    }
}
