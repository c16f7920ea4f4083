import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck load --profile dialstack` against the reference started with `--call-id-key id`: every push carries
/// the call ID under flutter_callkit_incoming's key, not `call_id`, and the load judge files each under its webhook
/// by that value (no webhook "never pushed", no DIALSTACK-PUSH-1).
extension LoadDialStackCommandTests {
    @Test func pushesCarryingTheCallIdUnderTheLibrarysKeyAreTiedToTheirWebhooks() async throws {
        var text = try String(
            contentsOfFile: TargetExampleRunTests.examples + "/dialstack-reference.yaml", encoding: .utf8)
        let start = "\"${RINGCHECK_BACKEND_PORT}\", --quiet]"
        #expect(text.contains(start), "the example's start line changed: update this test")
        text = text.replacingOccurrences(of: start, with: "\"${RINGCHECK_BACKEND_PORT}\", --quiet, --call-id-key, id]")
        let dir = TemporaryDirectory(prefix: "ringcheck-load-library")
        let file = try dir.write("library.yaml", text)
        let (r, report) = try await LoadCommandTests.load(["--target", file, "--calls", "10", "--rate", "4"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["verdict"]?.stringValue == "conformant", "\(r.stdout)")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["invariantViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect((report?["invitations"]?.int64Value ?? 0) > 0, "\(r.stdout)")
    }
}
