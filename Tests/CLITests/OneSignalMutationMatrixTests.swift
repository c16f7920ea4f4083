import Foundation
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// `ringcheck run --profile onesignal --reference-defect NAME` for every defect of the OneSignal kit server: the
/// requirements that fail are exactly the ones that defect breaks (the README's defect table), the exit code is
/// the table's (a defect breaking only SHOULDs warns, exit 0), no scenario turns into a harness error, and the
/// conforming kit passes every scenario.
@Suite(.serialized) struct OneSignalMutationMatrixTests {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    static let matrix: [(defect: String, exitsOne: Bool, requirements: Set<String>)] = [
        ("send-when-unconfigured", true, ["ONESIGNAL-CONF-1"]),
        ("delivered-on-zero", true, ["ONESIGNAL-DELIV-1"]),
        ("delivered-needs-two", true, ["ONESIGNAL-DELIV-2"]),
        ("target-by-player-id", true, ["ONESIGNAL-TARGET-1"]),
        ("voip-through-standard-app", true, ["ONESIGNAL-VOIP-1"]),
        ("standard-through-voip-app", true, ["ONESIGNAL-STD-1"]),
        ("headings-on-voip", true, ["ONESIGNAL-VOIP-5"]),
        ("ttl-default", true, ["ONESIGNAL-VOIP-4"]),
        ("voip-no-content-available", true, ["ONESIGNAL-VOIP-3"]),
        ("voip-push-type-alert", true, ["ONESIGNAL-VOIP-2"]),
        ("drop-priority", true, ["ONESIGNAL-OPT-1"]),
        ("drop-collapse-id", true, ["ONESIGNAL-OPT-1"]),
        ("drop-data", false, ["ONESIGNAL-DATA-1"]),
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
            ["run", "--profile", "onesignal", "--format", "json", "--report-dir", out]
                + defects.flatMap { ["--reference-defect", $0] }, timeout: 120)
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
        #expect(Set(Self.matrix.map(\.defect)) == Set(OneSignalKitDefect.allCases.map(\.name)))
    }

    @Test func theConformingKitPassesEveryScenario() async throws {
        let row = try await Self.run([], in: TemporaryDirectory())
        #expect(row.status == 0, "\(row.output)")
        #expect(row.statuses.count == 8 && row.statuses.values.allSatisfy { $0 == "pass" }, "\(row.statuses)")
    }

    @Test func everyDefectFailsExactlyTheRequirementsItBreaks() async throws {
        let dir = TemporaryDirectory()
        for (defect, exitsOne, requirements) in Self.matrix {
            let row = try await Self.run([defect], in: dir)
            #expect(row.failed == requirements, "\(defect): \(row.output)")
            #expect(row.status == (exitsOne ? 1 : 0), "\(defect): exit \(row.status)\n\(row.output)")
            let broken = row.statuses.filter { $0.value != "pass" && $0.value != "fail" }
            #expect(broken.isEmpty, "\(defect): \(broken)")
        }
    }
}
