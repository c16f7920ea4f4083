import Foundation
import JSON
import TestSupport
import Testing

/// A profile's mutation matrix through the CLI: `ringcheck run --profile P --reference-defect NAME` for each
/// defect of its embedded reference, judged from the JSON report. Shared by the profiles' matrix tests.
struct ProfileMutationMatrix {
    /// defect → (whether the run exits 1, the requirements that fail, exactly).
    typealias Entry = (defect: String, exitsOne: Bool, requirements: Set<String>)

    struct Row: Sendable {
        var status: Int32
        var statuses: [String: String]
        var failed: Set<String>
        var output: String
    }

    var profile: String
    var entries: [Entry]
    /// How long one whole-suite run may take.
    var timeout: Double

    /// One run with `defects` on, its reports written under `dir`.
    func run(_ defects: [String], in dir: TemporaryDirectory) async throws -> Row {
        let out = dir.file(defects.first ?? "conforming")
        let r = try await RingcheckBinary.runSuite(
            ["run", "--profile", profile, "--format", "json", "--report-dir", out]
                + defects.flatMap { ["--reference-defect", $0] }, timeout: timeout)
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

    /// The conforming reference: exit 0 and `scenarios` scenarios, every one passing.
    func expectConformingPasses(scenarios: Int) async throws {
        let row = try await run([], in: TemporaryDirectory())
        #expect(row.status == 0, "\(row.output)")
        #expect(row.statuses.count == scenarios && row.statuses.values.allSatisfy { $0 == "pass" }, "\(row.statuses)")
    }

    /// Each defect fails exactly its requirements with the table's exit code, and no scenario errors or times out.
    /// One row at a time, each waiting for a SuiteRunGate slot: many whole-suite runs side by side oversubscribe two cores.
    func expectEveryDefectFailsExactlyItsRequirements() async throws {
        let dir = TemporaryDirectory()
        for (defect, exitsOne, requirements) in entries {
            let row = try await run([defect], in: dir)
            #expect(row.failed == requirements, "\(defect): \(row.output)")
            #expect(row.status == (exitsOne ? 1 : 0), "\(defect): exit \(row.status)\n\(row.output)")
            let broken = row.statuses.filter { $0.value != "pass" && $0.value != "fail" }
            #expect(broken.isEmpty, "\(defect): \(broken)")
        }
    }
}
