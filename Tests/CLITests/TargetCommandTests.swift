import Foundation
import JSON
import Processes
import TestSupport
import Testing

/// `ringcheck init-target` and `ringcheck run --target` as a user runs them.
@Suite struct TargetCommandTests {
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Nothing listens on the discard port of the loopback address.
    static let closedURL = "http://127.0.0.1:9"

    static let users = """
        users:
          a: {userId: ua, auth: {bearer: ta}}
          b: {userId: ub, auth: {bearer: tb}}
          c: {userId: uc, auth: {bearer: tc}}
        """

    @Test func initTargetWritesATemplateOnceUnlessForced() async throws {
        let dir = TemporaryDirectory()
        let path = dir.file("backend.yaml")
        let first = try await RingcheckBinary.run(["init-target", path])
        #expect(first.status == 0, "\(first.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("baseURL:"))
        #expect(text.contains("# lifecycle:"))
        // Account pools, shown as the faster way to run against one's own backend.
        #expect(text.contains("#     - {userId: user-a1, auth: {bearer: token-user-a1}}"))
        #expect(text.contains("examples/targets/reference-pools.yaml"))
        #expect(text.contains("examples/targets/reference-signup.yaml"))
        let again = try await RingcheckBinary.run(["init-target", path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("exists; pass --force"))
        let forced = try await RingcheckBinary.run(["init-target", path, "--force"])
        #expect(forced.status == 0)
        let help = try await RingcheckBinary.run(["init-target", "--help"])
        #expect(help.stdout.contains("--force"))
        #expect(help.stdout.contains("EXAMPLES") || help.stdout.contains("ringcheck init-target my-backend.yaml"))
    }

    /// The `init-target` template as written, pointed at a port where nothing listens; its path in `dir`.
    static func unreachableTarget(in dir: TemporaryDirectory) async throws -> String {
        let path = dir.file("backend.yaml")
        _ = try await RingcheckBinary.run(["init-target", path])
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8080", with: Self.closedURL)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theTemplateLoadsAndAnUnreachableBackendIsInconclusive() async throws {
        let dir = TemporaryDirectory()
        let path = try await Self.unreachableTarget(in: dir)
        let r = try await RingcheckBinary.run(["run", "--target", path, "--report-dir", dir.file("r")])
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("does not answer"))
        #expect(r.stdout.contains("RINGCHECK_APNS_URL="))
    }

    @Test func theAlternateExampleStartsItsBackendAndPassesThroughTheMocks() async throws {
        // The example file as shipped, on a free port: ringcheck starts serve-reference (alternate shape)
        // after its mocks, so pushes, faults and events all go through the file's mapping.
        let port = try #require(LoopbackPort.free())
        let dir = TemporaryDirectory()
        let example = try String(
            contentsOfFile: Self.repositoryRoot + "/examples/targets/reference-alternate.yaml", encoding: .utf8)
        let path = try dir.write("alternate.yaml", example.replacingOccurrences(of: "8090", with: "\(port)"))
        let binDir = (RingcheckBinary.path as NSString).deletingLastPathComponent
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = binDir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let ids = [
            "basic.answer-and-hang-up", "arbitration.late-answer", "tokens.delete", "delivery.retry-through-503",
            "events.unknown-cursor-gap", "events.retention-gap", "security.no-push-secrets-in-logs",
            "security.unauthenticated",
        ]
        let r = try await RingcheckBinary.runSuite(
            ["run", "--target", path, "--report-dir", dir.file("r")] + ids, timeout: 120, environment: env)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("RINGCHECK_FCM_URL="))
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("r/report.json")))))
        let statuses = Dictionary(
            uniqueKeysWithValues: (report["scenarios"]?.arrayValue ?? []).map {
                ($0["id"]?.stringValue ?? "", $0["status"]?.stringValue ?? "")
            })
        for id in ids.dropLast() { #expect(statuses[id] == "pass", "\(id): \(statuses[id] ?? "missing")") }
        #expect(statuses["security.unauthenticated"] == "notApplicable")
        #expect(report.serialized().contains("and the target maps create to POST /api/v2/calls"))
        #expect(report.serialized().contains("reference backend (alternate API shape)"))
        #expect(!report.serialized().contains("token-user-"))
        // The backend ringcheck started is gone, its output kept.
        #expect(FileManager.default.fileExists(atPath: dir.file("r/backend.log")))
        let after = try await RingcheckBinary.run(
            ["run", "--target", path, "--report-dir", dir.file("r2"), "tokens.delete"],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(after.status == 0, "the example starts ringcheck by its own path, not from PATH: \(after.stderr)")
    }

    @Test func aTargetFileWithProblemsExitsTwoNamingLineAndField() async throws {
        let dir = TemporaryDirectory()
        let path = try dir.write(
            "bad.yaml",
            """
            baseURL: \(Self.closedURL)
            capabilities: [faults, teleport]
            \(Self.users)
            operations:
              get: {path: "/calls/{id}"}
            """)
        let r = try await RingcheckBinary.run(["run", "--target", path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.yaml:2:24: capabilities[1]: unknown capability 'teleport'"), "\(r.stderr)")
        #expect(r.stderr.contains("bad.yaml:8:15: operations.get.path: unknown placeholder '{id}'"), "\(r.stderr)")
        let defect = try await RingcheckBinary.run(["run", "--target", path, "--reference-defect", "zero-ttl"])
        #expect(defect.status == 2)
        #expect(
            defect.stderr.contains("--reference-defect and --reference-process apply to the embedded reference backend")
        )
    }

    @Test func mocksSettingsAreWrittenAndSkippedVerificationIsWarnedAbout() async throws {
        let dir = TemporaryDirectory()
        let path = try dir.write(
            "t.yaml",
            """
            baseURL: https://127.0.0.1:9
            tls: {insecureSkipVerify: true}
            \(Self.users)
            mocks: {stateDir: state, envFile: mocks.env, jsonFile: mocks.json}
            """)
        let r = try await RingcheckBinary.run(["run", "--target", path, "--report-dir", dir.file("r")])
        #expect(r.status == 3)
        #expect(r.stderr.contains("WARNING") && r.stderr.contains("NOT verified"))
        let env = try String(contentsOfFile: dir.file("mocks.env"), encoding: .utf8)
        #expect(env.contains("/state/ca.pem'\n") && env.contains("export RINGCHECK_CA_FILE="))
        #expect(FileManager.default.fileExists(atPath: dir.file("mocks.json")))
    }
}
