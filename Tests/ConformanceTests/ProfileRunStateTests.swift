import Testing

@testable import Callx
@testable import Conformance
@testable import DialStack
@testable import OneSignal
@testable import PushService

/// The run's store of profile states: each profile's state under its own type, fresh on first use, changed
/// in place, and the report secrets of all of them.
@Suite struct ProfileRunStateTests {
    @Test func eachProfileHasItsOwnTypedStateFreshOnFirstUse() {
        var states = ProfileRunStates()
        #expect(states[CallxProfile.self].calls.isEmpty)
        states[CallxProfile.self].mediaCredentials.append("media-credential-0123456789")
        states[DialStackProfile.self].deliveries.append(
            DialStackDelivery(
                eventId: "ev-1", type: "call.incoming", callId: nil, user: "b", data: [:], sentAtMs: 1,
                signedValidly: true, status: 200))
        #expect(states[CallxProfile.self].mediaCredentials == ["media-credential-0123456789"])
        #expect(states[DialStackProfile.self].user(ofEvent: "ev-1") == "b")
        #expect(states[OneSignalProfile.self].operations.isEmpty)
        #expect(states[PushServiceProfile.self].devices.isEmpty)
    }

    @Test func theReportSecretsAreEveryStatesOwn() {
        var states = ProfileRunStates()
        #expect(states.reportSecrets.isEmpty)
        states[CallxProfile.self].mediaCredentials = ["cred-aaaaaaaaaaaa", "cred-bbbbbbbbbbbb"]
        states[DialStackProfile.self].deliveries = []
        #expect(Set(states.reportSecrets) == ["cred-aaaaaaaaaaaa", "cred-bbbbbbbbbbbb"])
    }
}
