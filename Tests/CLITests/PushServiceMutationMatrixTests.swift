import ReferenceBackend
import Testing

/// `ringcheck run --profile push-service --reference-defect NAME` for every defect of the reference push service:
/// the requirements that fail are exactly the ones that defect breaks (the defect table of docs/profiles/push-service.md, which DocTablesTests holds to these entries), the exit code
/// is the table's (a defect breaking only SHOULDs warns, exit 0), no scenario turns into a harness error or a
/// timeout, and the conforming reference passes every scenario.
@Suite(.serialized) struct PushServiceMutationMatrixTests {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    static let entries: [ProfileMutationMatrix.Entry] = [
        ("alert-for-calls", true, ["PUSHSVC-CALL-1"]),
        ("voip-to-alert-token", true, ["PUSHSVC-CALL-1"]),
        ("numeric-payload-values", true, ["PUSHSVC-PAYLOAD-1"]),
        ("ended-new-id", true, ["PUSHSVC-CALL-4"]),
        ("no-voip-token-counted-ok", true, ["PUSHSVC-CALL-6"]),
        ("drop-device-on-dead-voip", true, ["PUSHSVC-VOIP-2"]),
        ("keep-dead-voip-token", true, ["PUSHSVC-VOIP-1"]),
        ("accept-any-key", true, ["PUSHSVC-AUTH-3"]),
        ("key-scheme-only", true, ["PUSHSVC-AUTH-2"]),
        // Every failure reported as successful includes the iOS device without voipToken, which CALL-6 names.
        ("counts-ignore-failures", true, ["PUSHSVC-COUNT-2", "PUSHSVC-CALL-6"]),
        ("notification-block-on-android", true, ["PUSHSVC-ANDROID-1"]),
        ("normal-priority-calls", true, ["PUSHSVC-ANDROID-2"]),
        ("normal-priority-ended", false, ["PUSHSVC-ANDROID-3"]),
        ("first-external-id-only", true, ["PUSHSVC-DEV-1"]),
        ("voip-for-ended", false, ["PUSHSVC-CALL-5"]),
        ("no-generated-id", true, ["PUSHSVC-CALL-3"]),
        ("ignore-ttl", true, ["PUSHSVC-NOTIF-2"]),
        ("ignore-collapse-id", true, ["PUSHSVC-NOTIF-3"]),
        ("ignore-badge", false, ["PUSHSVC-NOTIF-4"]),
        ("ignore-channel", false, ["PUSHSVC-NOTIF-5"]),
        ("sandbox-ignored", true, ["PUSHSVC-DEV-3"]),
        ("accept-bad-registration", false, ["PUSHSVC-REQ-5"]),
        ("ignore-call-timeout", true, ["PUSHSVC-CALL-8"]),
    ]

    static let matrix = ProfileMutationMatrix(profile: "push-service", entries: entries, timeout: 180)

    @Test func everyDefectSwitchHasARow() {
        #expect(Set(Self.entries.map(\.defect)) == Set(PushServiceDefect.allCases.map(\.name)))
    }

    @Test func theConformingReferencePassesEveryScenario() async throws {
        try await Self.matrix.expectConformingPasses(scenarios: 16)
    }

    @Test func everyDefectFailsExactlyTheRequirementsItBreaks() async throws {
        try await Self.matrix.expectEveryDefectFailsExactlyItsRequirements()
    }
}
