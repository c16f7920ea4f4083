import Foundation
import JSON
import TestSupport
import Testing

/// `ringcheck run` of the dialstack suite through the shipped example target: ringcheck starts
/// `serve-reference --profile dialstack` itself, hands it the webhook secret it generated (`secretEnv`), and judges
/// it; the same file with a defect switched on fails exactly the requirement that defect breaks.
@Suite struct DialStackTargetRunTests {
    static let example = TargetCommandTests.repositoryRoot + "/examples/targets/dialstack-reference.yaml"
    static let suite = TargetCommandTests.repositoryRoot + "/suites/dialstack"

    /// Runs the suite through `target`; returns the exit status, the failed requirements and the report's text.
    func run(_ target: String) async throws -> (
        status: Int32, failed: Set<String>, report: String, output: String, json: JSONValue
    ) {
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
        return (r.status, failed, text + html, r.stdout + r.stderr, report)
    }

    @Test func theExampleTargetIsConformantAndItsGeneratedSecretStaysOutOfTheReports() async throws {
        let r = try await run(Self.example)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.failed.isEmpty, "\(r.failed)")
        #expect(r.report.contains("wake-up latency over"), "every run notes the latency")
        // The reference enables Wake-Up Hold at the mock DialStack API on each registration; every scenario notes
        // the calls its own registrations caused, and none of an earlier scenario's (the accounts are fixed).
        for s in r.json["scenarios"]?.arrayValue ?? [] {
            let summaries = (s["timeline"]?.arrayValue ?? []).compactMap { $0["summary"]?.stringValue }
            let calls = summaries.filter { $0.hasPrefix("DialStack API users.update user ") }
            let registrations = summaries.filter { $0.hasPrefix("PUT ") && $0.contains("/push-tokens/") }
            #expect(calls.count == registrations.count && !calls.isEmpty, "\(s["id"] ?? .null): \(summaries)")
        }
        // The reference's token API is the file's (unmapped): the clean-up deletes every token, so no warning.
        #expect(!r.output.contains("Warning:"), "\(r.output)")
        // The secret ringcheck generated is a whsec_ value of 32 more characters; no report shows one whole.
        #expect(r.report.range(of: "whsec_[A-Za-z0-9]{32}", options: .regularExpression) == nil)
    }

    /// A file that maps registerToken (here to the reference's own route, with a body of its own) and not
    /// deleteToken: no delete is guessed at an undeclared route, and the console and the report say once that
    /// the tokens stay registered.
    @Test func aMappedRegisterTokenWithoutDeleteTokenWarnsOnceThatTokensStay() async throws {
        let dir = TemporaryDirectory()
        let text =
            try String(contentsOfFile: Self.example, encoding: .utf8) + """
                operations:
                  registerToken:
                    path: "/v1/installations/{installationId}/push-tokens/{kind}"
                    body: {token: "{token}", appId: "{appId}", apnsEnvironment: "{apnsEnvironment}"}

                """
        let path = try dir.write("dialstack-no-delete.yaml", text)
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "wake.every-device", "payload.fcm-data", "--suite", Self.suite, "--target", path, "--format",
                "json", "--report-dir", dir.file("r"),
            ], timeout: 240, environment: TargetExampleRunTests.withoutRingcheckOnPath)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let warning =
            "token clean-up skipped: the target file maps operations.registerToken (PUT /v1/installations/{installationId}/push-tokens/{kind}) but not operations.deleteToken, so the tokens of 5 devices stay registered"
        #expect(r.stdout.components(separatedBy: "Warning: " + warning).count == 2, "\(r.stdout)")
        let report = try JSONValue.parse(try String(contentsOfFile: dir.file("r/report.json"), encoding: .utf8))
        let notices = report["notices"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(notices.count == 1 && notices[0].hasPrefix(warning), "\(notices)")
    }

    @Test func aDefectThroughTheTargetFileFailsItsRequirement() async throws {
        let dir = TemporaryDirectory()
        let text = try String(contentsOfFile: Self.example, encoding: .utf8).replacingOccurrences(
            of: "--quiet]", with: "--quiet, --defect, no-timestamp-check]")
        #expect(text.contains("no-timestamp-check"))
        let path = try dir.write("dialstack-defect.yaml", text)
        let r = try await run(path)
        #expect(r.status == 1, "\(r.output)")
        #expect(r.failed == ["DIALSTACK-SIG-4"], "\(r.output)")
    }
}
