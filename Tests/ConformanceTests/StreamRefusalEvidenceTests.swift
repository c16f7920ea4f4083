import PushMocks
import Reports
import TestSupport
import Testing

@testable import Conformance

/// A stream the APNs mock's listener refused shows in an APNs device's evidence ("APNs refused a second stream on
/// a connection whose token was not yet accepted"), not only "no push reached b-ipad"; an FCM device's evidence
/// says nothing of it.
@Suite struct StreamRefusalEvidenceTests {
    let f = MockFixture(startMs: 1_790_000_000_000)

    static func device(_ kind: VirtualDevice.Kind, _ environment: VirtualDevice.Environment?) -> DeviceIdentity {
        DeviceIdentity(
            name: "b-ipad", user: "b", kind: kind, environment: environment, installationId: "i-1", tokens: ["ab"])
    }

    @Test func theAPNsMockRecordsARefusalBeforeTheTokenAndTheEvidenceSaysSo() {
        f.mocks.apns(.production).streamsRefused(1, connectionID: 42)
        let refusals = f.mocks.log.refusals(sinceMs: 0)
        #expect(
            refusals == [
                StreamRefusal(
                    mock: .apns, environment: .production, connectionID: 42, count: 1, atMs: 1_790_000_000_000,
                    tokenAccepted: false)
            ])
        let items = StreamRefusalEvidence.items(
            refusals, device: Self.device(.apnsVoip, .production), startedMs: 1_790_000_000_000 - 250)
        #expect(
            items.map(\.title) == [
                "APNs (production) refused a second stream on a connection whose token was not yet accepted"
            ])
        #expect(items.first?.text.contains("at +250 ms") == true, "\(items)")
        #expect(StreamRefusalEvidence.items(refusals, device: Self.device(.apnsVoip, .sandbox), startedMs: 0).isEmpty)
        #expect(StreamRefusalEvidence.items(refusals, device: Self.device(.fcm, nil), startedMs: 0).isEmpty)
        #expect(f.mocks.log.refusals(sinceMs: 1_790_000_000_001).isEmpty)
    }
}
