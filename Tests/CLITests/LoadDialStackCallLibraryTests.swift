import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck load --profile dialstack` against the reference started with `--call-id-key id`: every push carries
/// the call ID under flutter_callkit_incoming's key, not `call_id`, and the load judge files each under its webhook
/// by that value (no webhook "never pushed", no DIALSTACK-PUSH-1).
extension LoadDialStackCommandTests {
    /// `load --calls 10 --rate 4` over examples/targets/dialstack-reference.yaml with each `(text, replacement)` of
    /// `changes` made (each text must be in the example).
    static func loadExample(changing changes: [(String, String)]) async throws -> (ProcessResult, JSONValue?) {
        var text = try String(
            contentsOfFile: TargetExampleRunTests.examples + "/dialstack-reference.yaml", encoding: .utf8)
        for (old, new) in changes {
            #expect(text.contains(old), "the example changed (no \(old)): update this test")
            text = text.replacingOccurrences(of: old, with: new)
        }
        let dir = TemporaryDirectory(prefix: "ringcheck-load-target")  // removed when the run is over
        let file = try dir.write("changed.yaml", text)
        let result = try await LoadCommandTests.load(["--target", file, "--calls", "10", "--rate", "4"])
        withExtendedLifetime(dir) {}
        return result
    }

    @Test func pushesCarryingTheCallIdUnderTheLibrarysKeyAreTiedToTheirWebhooks() async throws {
        let start = "\"${RINGCHECK_BACKEND_PORT}\", --quiet]"
        let (r, report) = try await Self.loadExample(
            changing: [(start, "\"${RINGCHECK_BACKEND_PORT}\", --quiet, --call-id-key, id]")])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(report?["verdict"]?.stringValue == "conformant", "\(r.stdout)")
        #expect(report?["historyViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect(report?["invariantViolations"]?.arrayValue?.isEmpty == true, "\(r.stdout)")
        #expect((report?["invitations"]?.int64Value ?? 0) > 0, "\(r.stdout)")
    }
}
