import Foundation
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck run --profile dialstack --reference-defect NAME` for every defect of the wake-up reference backend:
/// the requirements that fail are exactly the ones that defect breaks (the README's defect table), the exit code
/// is the table's (a defect breaking only SHOULDs warns, exit 0), no scenario turns into a harness error or a
/// timeout, and the conforming reference passes every scenario.
@Suite(.serialized) struct DialStackMutationMatrixTests {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    static let matrix: [(defect: String, exitsOne: Bool, requirements: Set<String>)] = [
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
            ["run", "--profile", "dialstack", "--format", "json", "--report-dir", out]
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
        #expect(Set(Self.matrix.map(\.defect)) == Set(WakeUpDefect.allCases.map(\.name)))
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
