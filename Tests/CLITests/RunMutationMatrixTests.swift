import Foundation
import JSON
import TestSupport
import Testing

/// The mutation matrix: with each defect switch of the reference backend, the whole suite fails the
/// requirements that defect breaks. A defect that breaks only SHOULD requirements leaves the verdict
/// conformant with warnings (exit 0): the judging rules of ARCHITECTURE.md never fail a backend on a
/// SHOULD. No defect may turn into a harness error or a timeout.
@Suite struct RunMutationMatrixTests {
    /// defect → (exit code, requirements that must be among the failed ones).
    static let matrix: [(defect: String, exit: Int32, requirements: [String])] = [
        ("apns-expiration-30", 1, ["CALLX-APNS-5"]),
        ("duplicate-invite-on-retry", 0, ["CALLX-OUTBOX-1", "CALLX-OUTBOX-4"]),
        ("fixed-ttl-30s", 1, ["CALLX-FCM-6"]),
        ("forget-on-restart", 0, ["CALLX-E2E-3", "CALLX-IDEM-2"]),
        ("idempotency-ignores-payload", 0, ["CALLX-IDEM-4"]),
        ("identity-from-body", 1, ["CALLX-AUTH-1"]),
        ("invite-after-cancel", 1, ["CALLX-EXP-2"]),
        ("keep-dead-tokens", 0, ["CALLX-TOK-6", "CALLX-TOK-7"]),
        ("late-answer-wins", 0, ["CALLX-ARB-3", "CALLX-ARB-6"]),
        ("no-idempotency", 0, ["CALLX-IDEM-1", "CALLX-IDEM-4", "CALLX-IDEM-6"]),
        ("no-membership-check", 1, ["CALLX-AUTH-1", "CALLX-AUTH-3"]),
        ("no-retry", 0, ["CALLX-OUTBOX-2"]),
        ("notification-block", 1, ["CALLX-FCM-4"]),
        ("racy-answer", 0, ["CALLX-ARB-1"]),
        ("resurrect-ended-call", 1, ["CALLX-CALL-8", "CALLX-EXP-2"]),
        ("retry-after-expiry", 1, ["CALLX-EXP-2"]),
        ("revision-not-incremented", 0, ["CALLX-CALL-7"]),
        ("silent-gap", 0, ["CALLX-EVT-7"]),
        ("voip-stop-signal", 1, ["CALLX-APNS-8"]),
        ("zero-ttl", 1, ["CALLX-FCM-7"]),
    ]

    struct Row: Sendable {
        var defect: String
        var status: Int32
        var failed: Set<String>
        var harnessProblems: [String]
        var output: String
    }

    static func run(_ defect: String, in dir: TemporaryDirectory) async throws -> Row {
        let out = dir.file(defect)
        // Six scenarios at a time instead of twelve: the matrix runs beside the rest of `swift test`, and the
        // suite's longest scenario (8.5 s) sets the run's length either way.
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "--reference-defect", defect, "--concurrency", "6", "--format", "json", "--report-dir", out,
            ], timeout: 180)
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))))
        var failed: Set<String> = []
        var problems: [String] = []
        var details: [String] = []
        for s in report["scenarios"]?.arrayValue ?? [] {
            let status = s["status"]?.stringValue ?? ""
            if status == "fail" || status == "flaky" {
                for f in s["failures"]?.arrayValue ?? [] {
                    guard let id = f["requirement"]?.stringValue else { continue }
                    failed.insert(id)
                    // Which scenario failed what, so an unexpected exit code can be diagnosed from the log.
                    details.append(
                        "\(s["id"]?.stringValue ?? "?"): \(id) \(f["check"]?.stringValue ?? "") "
                            + String((f["actual"]?.stringValue ?? "").prefix(300)))
                }
            }
            if status == "error" || status == "timeout" { problems.append("\(s["id"]?.stringValue ?? "?"): \(status)") }
        }
        return Row(
            defect: defect, status: r.status, failed: failed, harnessProblems: problems,
            output: r.stderr + details.joined(separator: "\n"))
    }

    @Test func everyDefectFailsTheRequirementsItBreaks() async throws {
        let dir = TemporaryDirectory()
        var rows: [String: Row] = [:]
        // One run at a time (SuiteRunGate): concurrent whole-suite runs oversubscribe two cores until
        // short-ringing calls expire before they are answered.
        for (defect, _, _) in Self.matrix { rows[defect] = try await Self.run(defect, in: dir) }
        for (defect, exit, requirements) in Self.matrix {
            let row = try #require(rows[defect])
            #expect(row.status == exit, "\(defect): exit \(row.status), failed \(row.failed.sorted()) \(row.output)")
            #expect(
                Set(requirements).isSubset(of: row.failed),
                "\(defect): failed \(row.failed.sorted()), expected at least \(requirements)")
            #expect(row.harnessProblems.isEmpty, "\(defect): \(row.harnessProblems)")
        }
    }
}
