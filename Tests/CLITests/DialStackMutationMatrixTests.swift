import ReferenceBackend
import Testing

/// `ringcheck run --profile dialstack --reference-defect NAME` for every defect of the wake-up reference backend:
/// the requirements that fail are exactly the ones that defect breaks (the defect table of docs/profiles/dialstack.md, which DocTablesTests holds to these entries), the exit code
/// is the table's (a defect breaking only SHOULDs warns, exit 0), no scenario turns into a harness error or a
/// timeout, and the conforming reference passes every scenario.
@Suite(.serialized) struct DialStackMutationMatrixTests {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    static let entries: [ProfileMutationMatrix.Entry] = [
        ("verify-parsed-body", true, ["DIALSTACK-SIG-1"]),
        // Without any check the header says nothing: wrong digests, missing headers and old timestamps all pass.
        ("no-signature-check", true, ["DIALSTACK-SIG-2", "DIALSTACK-SIG-3", "DIALSTACK-SIG-4"]),
        ("no-timestamp-check", true, ["DIALSTACK-SIG-4"]),
        ("push-on-ringing", true, ["DIALSTACK-WAKE-3"]),
        ("apns-expiration-0", true, ["DIALSTACK-APNS-4"]),
        ("fcm-notification-block", true, ["DIALSTACK-FCM-1"]),
        ("fcm-ttl-long", true, ["DIALSTACK-FCM-3"]),
        ("missing-call-id", true, ["DIALSTACK-PUSH-1"]),
        ("first-device-only", true, ["DIALSTACK-WAKE-1"]),
        ("wrong-user", true, ["DIALSTACK-WAKE-2"]),
        ("ring-twice-on-redelivery", false, ["DIALSTACK-DEDUP-1"]),
        ("slow-push", false, ["DIALSTACK-LAT-1"]),
        // Answers each webhook only after its pushes, sent 16 s late: judged late, never a harness error.
        ("slow-answer", false, ["DIALSTACK-LAT-1"]),
    ]

    static let matrix = ProfileMutationMatrix(profile: "dialstack", entries: entries, timeout: 180)

    @Test func everyDefectSwitchHasARow() {
        #expect(Set(Self.entries.map(\.defect)) == Set(DialStackDefect.allCases.map(\.name)))
    }

    @Test func theConformingReferencePassesEveryScenario() async throws {
        try await Self.matrix.expectConformingPasses(scenarios: 13)
    }

    @Test func everyDefectFailsExactlyTheRequirementsItBreaks() async throws {
        try await Self.matrix.expectEveryDefectFailsExactlyItsRequirements()
    }
}
