import Conformance
import Foundation
import ReferenceBackend
import TestSupport
import Testing

/// Every defect of the wake-up reference backend, run through the whole dialstack suite: the requirements that
/// fail are exactly the ones the defect breaks (the README's defect table), and nothing else.
@Suite(.serialized) struct DialStackMutationMatrixTests {
    /// The defect table: what each switch must make fail.
    static let expected: [WakeUpDefect: Set<String>] = [
        .verifyParsedBody: ["DIALSTACK-SIG-1"],
        // Without any check the header says nothing: wrong digests, missing headers and old timestamps all pass.
        .noSignatureCheck: ["DIALSTACK-SIG-2", "DIALSTACK-SIG-3", "DIALSTACK-SIG-4"],
        .noTimestampCheck: ["DIALSTACK-SIG-4"],
        .pushOnRinging: ["DIALSTACK-WAKE-3"],
        .apnsExpiration0: ["DIALSTACK-APNS-4"],
        .fcmNotificationBlock: ["DIALSTACK-FCM-1"],
        .fcmTTLLong: ["DIALSTACK-FCM-3"],
        .missingCallID: ["DIALSTACK-PUSH-1"],
        .firstDeviceOnly: ["DIALSTACK-WAKE-1"],
        .wrongUser: ["DIALSTACK-WAKE-2"],
        .ringTwiceOnRedelivery: ["DIALSTACK-DEDUP-1"],
        .slowPush: ["DIALSTACK-LAT-1"],
    ]

    @Test func everyDefectHasARow() {
        #expect(Set(Self.expected.keys) == Set(WakeUpDefect.allCases))
    }

    @Test(arguments: WakeUpDefect.allCases)
    func defectFailsExactlyItsRequirements(defect: WakeUpDefect) async throws {
        let stack = try DialStackTestStack.start(defects: [defect])
        let results = await stack.run()
        await stack.stop()
        let failed = DialStackTestStack.failedRequirements(results)
        #expect(failed == Self.expected[defect], "\(defect.name):\n\(DialStackTestStack.describe(results))")
        // The README's exit column: only the redelivery and latency defects break SHOULDs alone (a warning, exit 0).
        let breaksMust = failed.contains { stack.suite.catalogue[$0]?.level == .must }
        #expect(breaksMust == ![.ringTwiceOnRedelivery, .slowPush].contains(defect), "\(defect.name)")
        // A defect makes checks fail; it never stops a scenario as a harness error or a timeout.
        for r in results {
            let status = r.attempts.last?.status
            #expect(status == .pass || status == .fail, "\(r.scenario.id): \(status?.name ?? "none")")
        }
    }
}
