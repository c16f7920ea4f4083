import Foundation
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// The mutation matrix: with each defect switch of the reference backend, the whole suite fails the
/// requirements that defect breaks. The runs are not `--strict`, so the exit code is the one a vendor
/// sees: 1 for a defect that breaks a MUST (the headline rules of ARCHITECTURE.md among them: two
/// winners, a lost idempotency, a duplicate invitation, a silent gap), 0 for one that breaks only
/// SHOULD requirements, whose failures are still in the report as warnings. Every switch is caught
/// either way: its requirements are among the failed ones. No defect may turn into a harness error or
/// a timeout.
@Suite struct RunMutationMatrixTests {
    /// defect → (whether it breaks a MUST, so the run exits 1; requirements that must be among the failed ones).
    static let matrix: [(defect: String, mustBreaking: Bool, requirements: [String])] = [
        ("apns-expiration-30", true, ["CALLX-APNS-5"]),
        ("duplicate-invite-on-retry", true, ["CALLX-OUTBOX-1", "CALLX-OUTBOX-4"]),
        ("fixed-ttl-30s", true, ["CALLX-FCM-6"]),
        ("forget-on-restart", true, ["CALLX-E2E-3", "CALLX-IDEM-2"]),
        ("idempotency-ignores-payload", true, ["CALLX-IDEM-4"]),
        ("identity-from-body", true, ["CALLX-AUTH-1"]),
        ("invite-after-cancel", true, ["CALLX-EXP-2"]),
        ("keep-dead-tokens", true, ["CALLX-TOK-6", "CALLX-TOK-7"]),
        ("late-answer-wins", true, ["CALLX-ARB-3", "CALLX-ARB-6"]),
        ("log-push-secrets", true, ["CALLX-SEC-3"]),
        ("long-lived-media", false, ["CALLX-MEDIA-2"]),
        ("no-idempotency", true, ["CALLX-IDEM-1", "CALLX-IDEM-4", "CALLX-IDEM-6"]),
        ("no-membership-check", true, ["CALLX-AUTH-1", "CALLX-AUTH-3"]),
        ("no-retry", true, ["CALLX-OUTBOX-2"]),
        ("notification-block", true, ["CALLX-FCM-4"]),
        ("racy-answer", true, ["CALLX-ARB-1"]),
        ("resurrect-ended-call", true, ["CALLX-CALL-8", "CALLX-EXP-2"]),
        ("retry-after-expiry", true, ["CALLX-EXP-2"]),
        ("revision-not-incremented", false, ["CALLX-CALL-7"]),
        ("silent-gap", true, ["CALLX-EVT-7"]),
        ("voip-stop-signal", true, ["CALLX-APNS-8"]),
        ("zero-ttl", true, ["CALLX-FCM-7"]),
        ("cursor-ahead-no-gap", true, ["CALLX-EVT-8"]),
        ("end-reason-not-stored", false, ["CALLX-CALL-9"]),
        ("invite-last-device-only", true, ["CALLX-INV-7"]),
        ("flat-caller-snapshot", false, ["CALLX-CALL-3"]),
        ("bare-stop-signal", true, ["CALLX-FCM-8"]),
        ("duplicate-invite", true, ["CALLX-OUTBOX-4"]),
    ]

    struct Row: Sendable {
        var defect: String
        var status: Int32
        var failed: Set<String>
        var mustFailures: Int
        var harnessProblems: [String]
        var output: String
    }

    static func run(_ defect: String, in dir: TemporaryDirectory) async throws -> Row {
        let out = dir.file(defect)
        // Six scenarios at a time instead of twelve: the matrix runs beside the rest of `swift test`, and the
        // suite's longest scenario (8.5 s) sets the run's length either way.
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "--reference-defect", defect, "--concurrency", "6", "--format", "json",
                "--report-dir",
                out,
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
            defect: defect, status: r.status, failed: failed,
            mustFailures: report["summary"]?["mustFailures"]?.intValue ?? -1, harnessProblems: problems,
            output: r.stderr + details.joined(separator: "\n"))
    }

    @Test func everyDefectSwitchHasARow() {
        #expect(Set(Self.matrix.map(\.defect)) == Set(CallxDefect.allCases.map(\.name)))
    }

    /// The rows of `half` (0: the first half of the matrix, 1: the rest): each half is one test case, so the
    /// two run beside each other, each in a SuiteRunGate slot of its own, instead of all rows in one chain.
    static func rows(ofHalf half: Int) -> ArraySlice<(defect: String, mustBreaking: Bool, requirements: [String])> {
        let middle = matrix.count / 2
        return half == 0 ? matrix[..<middle] : matrix[middle...]
    }

    @Test func theTwoHalvesHoldEveryRowOnce() {
        #expect((Self.rows(ofHalf: 0) + Self.rows(ofHalf: 1)).map(\.defect) == Self.matrix.map(\.defect))
    }

    @Test(arguments: [0, 1]) func everyDefectFailsTheRequirementsItBreaks(half: Int) async throws {
        let dir = TemporaryDirectory()
        var rows: [String: Row] = [:]
        // Within a half, one row at a time, each waiting for a SuiteRunGate slot: many whole-suite runs at
        // once oversubscribe two cores until short-ringing calls expire before they are answered.
        for (defect, _, _) in Self.rows(ofHalf: half) { rows[defect] = try await Self.run(defect, in: dir) }
        for (defect, mustBreaking, requirements) in Self.rows(ofHalf: half) {
            let row = try #require(rows[defect])
            let exit: Int32 = mustBreaking ? 1 : 0
            #expect(
                row.status == exit,
                "\(defect): exit \(row.status), expected \(exit), failed \(row.failed.sorted()) \(row.output)")
            #expect(
                (row.mustFailures > 0) == mustBreaking,
                "\(defect): \(row.mustFailures) MUST failure(s), expected \(mustBreaking ? "some" : "none") \(row.output)"
            )
            #expect(
                Set(requirements).isSubset(of: row.failed),
                "\(defect): failed \(row.failed.sorted()), expected at least \(requirements)")
            #expect(row.harnessProblems.isEmpty, "\(defect): \(row.harnessProblems)")
        }
    }
}
