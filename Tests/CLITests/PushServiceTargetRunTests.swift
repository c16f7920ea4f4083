import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck run` of the push-service suite through the shipped example target: ringcheck starts
/// `serve-reference --profile push-service` itself with the App ID and REST key it generated (`appIdEnv`,
/// `apiKeyEnv`) and judges it through the file alone; the key never shows in a report.
@Suite struct PushServiceTargetRunTests {
    static let example = TargetCommandTests.repositoryRoot + "/examples/targets/push-service-reference.yaml"
    static let suite = TargetCommandTests.repositoryRoot + "/suites/push-service"

    func run(_ target: String) async throws -> (status: Int32, failed: Set<String>, report: String, output: String) {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "--suite", Self.suite, "--target", target, "--format", "json,html", "--report-dir", dir.file("r")],
            timeout: 240, environment: TargetExampleRunTests.withoutRingcheckOnPath)
        let text = (try? String(contentsOfFile: dir.file("r/report.json"), encoding: .utf8)) ?? ""
        let report = try JSONValue.parse(text)
        var failed: Set<String> = []
        for s in report["scenarios"]?.arrayValue ?? [] {
            for f in s["failures"]?.arrayValue ?? [] { if let id = f["requirement"]?.stringValue { failed.insert(id) } }
        }
        let html = (try? String(contentsOfFile: dir.file("r/report.html"), encoding: .utf8)) ?? ""
        return (r.status, failed, text + html, r.stdout + r.stderr)
    }

    @Test func theExampleTargetIsConformantAndItsKeyStaysOutOfTheReports() async throws {
        let r = try await run(Self.example)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.failed.isEmpty, "\(r.failed)")
        #expect(r.report.range(of: "psk_[A-Za-z0-9]{32}", options: .regularExpression) == nil)
    }

    @Test func aDefectThroughTheTargetFileFailsItsRequirement() async throws {
        let dir = TemporaryDirectory()
        let text = try String(contentsOfFile: Self.example, encoding: .utf8).replacingOccurrences(
            of: "--quiet]", with: "--quiet, --defect, ignore-ttl]")
        #expect(text.contains("ignore-ttl"))
        let path = try dir.write("push-service-defect.yaml", text)
        let r = try await run(path)
        #expect(r.status == 1, "\(r.output)")
        #expect(r.failed == ["PUSHSVC-NOTIF-2"], "\(r.output)")
    }
}
