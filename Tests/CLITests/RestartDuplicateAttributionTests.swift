import Foundation
import JSON
import TestSupport
import Testing

/// A backend that sends each invitation twice (`duplicate-invite`) breaks the duplicate rule (CALLX-OUTBOX-4),
/// not the restart's (CALLX-E2E-3): in `restart.ringing-call-survives` its second copy reaches b-phone with the
/// first, before the backend is restarted, so it is nothing the restart repeated or made (`AfterTheRestart`).
@Suite struct RestartDuplicateAttributionTests {
    @Test func aCopySentBeforeTheRestartIsChargedToTheDuplicateRuleOnly() async throws {
        let dir = TemporaryDirectory()
        let out = dir.file("report")
        let r = try await RingcheckBinary.run(
            [
                "run", "--reference-defect", "duplicate-invite", "restart.ringing-call-survives", "--format", "json",
                "--report-dir", out,
            ], timeout: 120)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let report = try JSONValue.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))))
        let failures = (report["scenarios"]?.arrayValue ?? []).flatMap { $0["failures"]?.arrayValue ?? [] }
        let charged = Set(failures.compactMap { $0["requirement"]?.stringValue })
        #expect(charged == ["CALLX-OUTBOX-4"], "\(failures.map { $0.serialized() })")
    }
}
