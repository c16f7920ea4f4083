import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck run` of the onesignal suite through the shipped example target: ringcheck starts
/// `serve-reference --profile onesignal --mock-settings --unconfigured-prefix /unconfigured` itself and judges it
/// through `profileOperations` and `unconfigured.baseURL`; the same file with a defect fails exactly its
/// requirement, without `unconfigured:` the unconfigured check is not applicable, and no report shows an API key.
@Suite struct OneSignalTargetRunTests {
    static let example = TargetCommandTests.repositoryRoot + "/examples/targets/onesignal-reference.yaml"
    static let suite = TargetCommandTests.repositoryRoot + "/suites/onesignal"

    func run(_ target: String) async throws
        -> (status: Int32, failed: Set<String>, statuses: [String: String], report: String, output: String)
    {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "--suite", Self.suite, "--target", target, "--format", "json,html", "--report-dir", dir.file("r")],
            timeout: 120, environment: TargetExampleRunTests.withoutRingcheckOnPath)
        let text = (try? String(contentsOfFile: dir.file("r/report.json"), encoding: .utf8)) ?? ""
        let report = try JSONValue.parse(text)
        var failed: Set<String> = []
        var statuses: [String: String] = [:]
        for s in report["scenarios"]?.arrayValue ?? [] {
            statuses[s["id"]?.stringValue ?? "?"] = s["status"]?.stringValue
            for f in s["failures"]?.arrayValue ?? [] { if let id = f["requirement"]?.stringValue { failed.insert(id) } }
        }
        let html = (try? String(contentsOfFile: dir.file("r/report.html"), encoding: .utf8)) ?? ""
        return (r.status, failed, statuses, text + html, r.stdout + r.stderr)
    }

    @Test func theExampleTargetIsConformantAndNoKeyIsShown() async throws {
        let r = try await run(Self.example)
        #expect(r.status == 0, "\(r.output)")
        #expect(
            r.failed.isEmpty && r.statuses.values.allSatisfy { $0 == "pass" }, "\(r.statuses) \(r.failed) \(r.output)")
        #expect(r.statuses["unconfigured.no-request"] == "pass")
        // The mock's REST API keys are os_v2_app_ and 56 more characters: neither reports nor output show one.
        #expect((r.report + r.output).range(of: "os_v2_app_[a-z0-9]{20}", options: .regularExpression) == nil)
    }

    @Test func aDefectThroughTheTargetFileFailsItsRequirement() async throws {
        let dir = TemporaryDirectory()
        let text = try String(contentsOfFile: Self.example, encoding: .utf8).replacingOccurrences(
            of: "--quiet]", with: "--quiet, --defect, send-when-unconfigured]")
        #expect(text.contains("send-when-unconfigured"))
        let r = try await run(try dir.write("onesignal-defect.yaml", text))
        #expect(r.status == 1, "\(r.output)")
        #expect(r.failed == ["ONESIGNAL-CONF-1"], "\(r.output)")
    }

    @Test func theMappingFormWithAuthAndNoUsersIsConformant() async throws {
        let dir = TemporaryDirectory()
        var text = try String(contentsOfFile: Self.example, encoding: .utf8)
        let users = try #require(text.range(of: "users:\n  a:"))
        let lifecycle = try #require(text.range(of: "lifecycle:\n"))
        text.removeSubrange(users.lowerBound..<lifecycle.lowerBound)
        text = text.replacingOccurrences(
            of: "profileOperations:\n  pushToUser: /push/user\n",
            with: """
                profileOperations:
                  auth: {headers: {X-Admin-Key: k}}
                  pushToUser:
                    method: POST
                    path: /push/user
                    body: {userId: "{userId}", title: "{title}", body: "{body}", data: "{data}", options: "{options}"}
                    auth: {bearer: t}
                    response: {delivered: delivered}

                """)
        #expect(text.contains("response: {delivered: delivered}") && !text.contains("users:\n"))
        let r = try await run(try dir.write("onesignal-mapped.yaml", text))
        #expect(r.status == 0, "\(r.output)")
        #expect(r.statuses.values.allSatisfy { $0 == "pass" }, "\(r.statuses) \(r.output)")
    }

    @Test func withoutAnUnconfiguredInstanceThatCheckIsNotApplicable() async throws {
        let dir = TemporaryDirectory()
        let text = try String(contentsOfFile: Self.example, encoding: .utf8).replacingOccurrences(
            of: "unconfigured:\n  baseURL:", with: "# unconfigured:\n#  baseURL:")
        #expect(text.contains("# unconfigured:"))
        let r = try await run(try dir.write("onesignal-no-twin.yaml", text))
        #expect(r.status == 0, "\(r.output)")
        #expect(r.statuses["unconfigured.no-request"] == "notApplicable", "\(r.statuses)")
    }
}
