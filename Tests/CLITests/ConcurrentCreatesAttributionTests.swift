import Foundation
import JSON
import TestSupport
import Testing

/// `idempotency.concurrent-creates` charges a second invitation to CALLX-OUTBOX-1 only beyond what one lone create
/// of the same backend sends (`LoneCreateBaseline`): a backend that sends every invitation twice
/// (`duplicate-invite`) breaks the duplicate rule (CALLX-OUTBOX-4) alone, while one whose raced creates each send
/// the invitation again (`duplicate-invite-on-retry`) still breaks OUTBOX-1.
@Suite struct ConcurrentCreatesAttributionTests {
    static func charged(defect: String) async throws -> (status: Int32, charged: Set<String>, failures: String) {
        let dir = TemporaryDirectory()
        let out = dir.file("report")
        let r = try await RingcheckBinary.run(
            [
                "run", "--reference-defect", defect, "idempotency.concurrent-creates", "--format", "json",
                "--report-dir", out,
            ], timeout: 120)
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))))
        let failures = (report["scenarios"]?.arrayValue ?? []).flatMap { $0["failures"]?.arrayValue ?? [] }
        return (
            r.status, Set(failures.compactMap { $0["requirement"]?.stringValue }),
            "\(r.stderr)"
                + failures.map { "\($0["requirement"]?.stringValue ?? "?"): \($0["check"]?.stringValue ?? "")" }
                .joined(separator: "; ")
        )
    }

    @Test func aBackendThatSendsEveryInvitationTwiceIsChargedTheDuplicateRuleOnly() async throws {
        let run = try await Self.charged(defect: "duplicate-invite")
        #expect(run.status == 1, "\(run.failures)")
        #expect(run.charged == ["CALLX-OUTBOX-4"], "\(run.failures)")
    }

    @Test func copiesBeyondALoneCreatesAreStillOutbox1() async throws {
        let run = try await Self.charged(defect: "duplicate-invite-on-retry")
        #expect(run.status == 1, "\(run.failures)")
        #expect(run.charged.contains("CALLX-OUTBOX-1"), "\(run.failures)")
    }
}
