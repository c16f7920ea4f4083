import ReferenceBackend
import Testing

/// `ringcheck run --profile onesignal --reference-defect NAME` for every defect of the OneSignal kit server: the
/// requirements that fail are exactly the ones that defect breaks (the defect table of docs/profiles/onesignal.md, which DocTablesTests holds to these entries), the exit code is
/// the table's (a defect breaking only SHOULDs warns, exit 0), no scenario turns into a harness error, and the
/// conforming kit passes every scenario.
@Suite(.serialized) struct OneSignalMutationMatrixTests {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    static let entries: [ProfileMutationMatrix.Entry] = [
        ("send-when-unconfigured", true, ["ONESIGNAL-CONF-1"]),
        ("delivered-on-zero", true, ["ONESIGNAL-DELIV-1"]),
        ("delivered-needs-two", true, ["ONESIGNAL-DELIV-2"]),
        ("target-by-player-id", true, ["ONESIGNAL-TARGET-1"]),
        ("voip-through-standard-app", true, ["ONESIGNAL-VOIP-1"]),
        ("refuse-ttl-option", true, ["ONESIGNAL-OPT-1"]),
        ("standard-through-voip-app", true, ["ONESIGNAL-STD-1"]),
        ("headings-on-voip", true, ["ONESIGNAL-VOIP-5"]),
        ("ttl-default", true, ["ONESIGNAL-VOIP-4"]),
        ("voip-no-content-available", true, ["ONESIGNAL-VOIP-3"]),
        ("voip-push-type-alert", true, ["ONESIGNAL-VOIP-2"]),
        ("drop-priority", true, ["ONESIGNAL-OPT-1"]),
        ("drop-collapse-id", true, ["ONESIGNAL-OPT-1"]),
        ("drop-data", false, ["ONESIGNAL-DATA-1"]),
        ("broadcast-without-segment", false, ["ONESIGNAL-TARGET-2"]),
        // The caller's contentAvailable false in voip.caller-overrides is dropped too, and the VoIP default takes its place.
        ("drop-falsy-options", true, ["ONESIGNAL-OPT-1", "ONESIGNAL-VOIP-3"]),
        ("voip-defaults-over-options", true, ["ONESIGNAL-VOIP-2", "ONESIGNAL-VOIP-3", "ONESIGNAL-VOIP-4"]),
    ]

    static let matrix = ProfileMutationMatrix(profile: "onesignal", entries: entries, timeout: 120)

    @Test func everyDefectSwitchHasARow() {
        #expect(Set(Self.entries.map(\.defect)) == Set(OneSignalDefect.allCases.map(\.name)))
    }

    @Test func theConformingKitPassesEveryScenario() async throws {
        try await Self.matrix.expectConformingPasses(scenarios: 10)
    }

    @Test func everyDefectFailsExactlyTheRequirementsItBreaks() async throws {
        try await Self.matrix.expectEveryDefectFailsExactlyItsRequirements()
    }
}
