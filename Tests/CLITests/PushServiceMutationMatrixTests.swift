import Foundation
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck run --profile push-service --reference-defect NAME` for every defect of the reference push service:
/// the requirements that fail are exactly the ones that defect breaks (the README's defect table), the exit code
/// is the table's (a defect breaking only SHOULDs warns, exit 0), no scenario turns into a harness error or a
/// timeout, and the conforming reference passes every scenario.
@Suite(.serialized) struct PushServiceMutationMatrixTests {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    static let matrix: [(defect: String, exitsOne: Bool, requirements: Set<String>)] = [
        ("alert-for-calls", true, ["PUSHSVC-CALL-1"]),
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
        ("voip-for-ended", false, ["PUSHSVC-CALL-5"]),
        ("no-generated-id", true, ["PUSHSVC-CALL-3"]),
        ("ignore-ttl", true, ["PUSHSVC-NOTIF-2"]),
        ("ignore-collapse-id", true, ["PUSHSVC-NOTIF-3"]),
        ("ignore-badge", false, ["PUSHSVC-NOTIF-4"]),
        ("ignore-channel", false, ["PUSHSVC-NOTIF-5"]),
        ("sandbox-ignored", true, ["PUSHSVC-DEV-3"]),
    ]

    struct Row: Sendable {
        var status: Int32
        var statuses: [String: String]
        var failed: Set<String>
        var output: String
    }

    static func run(_ defects: [String], in dir: TemporaryDirectory) async throws -> Row {
        let out = dir.file(defects.first ?? "conforming")
        let r = try await RingcheckBinary.runSuite(
            ["run", "--profile", "push-service", "--format", "json", "--report-dir", out]
                + defects.flatMap { ["--reference-defect", $0] }, timeout: 180)
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))))
        var row = Row(status: r.status, statuses: [:], failed: [], output: r.stderr)
        for s in report["scenarios"]?.arrayValue ?? [] {
            let id = s["id"]?.stringValue ?? "?"
            row.statuses[id] = s["status"]?.stringValue ?? "?"
            for f in s["failures"]?.arrayValue ?? [] {
                guard let requirement = f["requirement"]?.stringValue else { continue }
                row.failed.insert(requirement)
                row.output +=
                    "\n\(id): \(requirement) \(f["check"]?.stringValue ?? "") "
                    + String((f["actual"]?.stringValue ?? "").prefix(300))
            }
        }
        return row
    }

    @Test func everyDefectSwitchHasARow() {
        #expect(Set(Self.matrix.map(\.defect)) == Set(PushServiceDefect.allCases.map(\.name)))
    }

    @Test func theConformingReferencePassesEveryScenario() async throws {
        let row = try await Self.run([], in: TemporaryDirectory())
        #expect(row.status == 0, "\(row.output)")
        #expect(row.statuses.count == 13 && row.statuses.values.allSatisfy { $0 == "pass" }, "\(row.statuses)")
    }

    @Test func everyDefectFailsExactlyTheRequirementsItBreaks() async throws {
        let dir = TemporaryDirectory()
        // One run at a time (SuiteRunGate): whole-suite runs side by side oversubscribe two cores.
        for (defect, exitsOne, requirements) in Self.matrix {
            let row = try await Self.run([defect], in: dir)
            #expect(row.failed == requirements, "\(defect): \(row.output)")
            #expect(row.status == (exitsOne ? 1 : 0), "\(defect): exit \(row.status)\n\(row.output)")
            let broken = row.statuses.filter { $0.value != "pass" && $0.value != "fail" }
            #expect(broken.isEmpty, "\(defect): \(broken)")
        }
    }
}
