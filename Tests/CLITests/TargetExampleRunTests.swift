import Foundation
import JSON
import TestSupport
import Testing

/// The shipped example targets as a new user runs them: no ringcheck on PATH, no fixed port, and
/// the backend's data kept across the restarts the restart scenarios make.
@Suite struct TargetExampleRunTests {
    static let examples = TargetCommandTests.repositoryRoot + "/examples/targets"

    /// The environment without any folder holding a `ringcheck` on PATH.
    static var withoutRingcheckOnPath: [String: String] {
        var env = CallCommandTests.plain
        env["PATH"] = "/usr/bin:/bin"
        return env
    }

    @Test(arguments: [
        "reference.yaml", "reference-alternate.yaml", "reference-node.yaml", "reference-pools.yaml",
        "reference-signup.yaml",
    ])
    func anExampleRunsItsRestartScenariosWithNothingInstalled(_ example: String) async throws {
        let text = try String(contentsOfFile: Self.examples + "/" + example, encoding: .utf8)
        #expect(!text.contains("start: [ringcheck"), "the start command needs no ringcheck on PATH")
        #expect(text.contains("baseURL: http://127.0.0.1:${RINGCHECK_BACKEND_PORT}"), "no fixed port")
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "--target", Self.examples + "/" + example, "restart.*", "basic.answer-and-hang-up", "--format",
                "json", "--report-dir", dir.file("r"),
            ], timeout: 120, environment: Self.withoutRingcheckOnPath)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("r/report.json")))))
        let statuses = (report["scenarios"]?.arrayValue ?? []).map {
            ($0["id"]?.stringValue ?? "?", $0["status"]?.stringValue ?? "?")
        }
        #expect(statuses.count == 3, "\(statuses)")
        for (id, status) in statuses {
            // The node-shaped backend keys nothing by operationId: the restart scenario that checks a
            // retried answer after the restart needs idempotency, so it is not applicable there.
            let expected =
                example == "reference-node.yaml" && id == "restart.answered-call-survives" ? "notApplicable" : "pass"
            #expect(status == expected, "\(example) \(id): \(status)")
        }
        if example == "reference-pools.yaml" || example == "reference-signup.yaml" {
            // `instances: 2`: the two restarts restarted the second instance (its log shows its start and one
            // per restart) while the first, running the other scenario, started once and never restarted.
            #expect(Self.starts(in: dir.file("r/backend.log")) == 1)
            #expect(Self.starts(in: dir.file("r/backend-restart-instance.log")) == 3)
        }
        if example == "reference-signup.yaml" {
            // `accounts: {signUp}` against the reference's POST /v1/accounts: each instance signs up the slots it
            // runs on, 11 per user in the first and the 12th in the second (whose accounts outlive its restarts).
            #expect(Self.signUps(in: dir.file("r/backend.log")) == 33)
            #expect(Self.signUps(in: dir.file("r/backend-restart-instance.log")) == 3)
        }
    }

    /// How many times the lifecycle's `start` command ran, by the header lines of the backend log at `path`.
    static func starts(in path: String) -> Int {
        let log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasPrefix("==== ringcheck ") && $0.contains(": start: ") }.count
    }

    /// How many accounts the reference's request log at `path` shows signed up.
    static func signUps(in path: String) -> Int {
        let log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.contains("api POST /v1/accounts → 201") }.count
    }

    /// The account-pool example: every listed account exists in the backend it starts (its users file), and
    /// scenarios run at once on different accounts of the pools (a second slot's accounts are used).
    @Test func thePoolExampleRunsScenariosOnSeveralAccounts() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "--target", Self.examples + "/reference-pools.yaml", "basic.*", "--format", "json",
                "--report-dir", dir.file("r"),
            ], timeout: 120, environment: Self.withoutRingcheckOnPath)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let report = try String(contentsOfFile: dir.file("r/report.json"), encoding: .utf8)
        #expect(report.contains("user-a1") && report.contains("user-a2"), "only one slot of the pools was used")
        let users = try JSONValue.parse(
            Array(try Data(contentsOf: URL(fileURLWithPath: Self.examples + "/reference-users.json"))))
        let known = Set((users["users"]?.arrayValue ?? []).compactMap { $0["userId"]?.stringValue })
        let listed = try String(contentsOfFile: Self.examples + "/reference-pools.yaml", encoding: .utf8)
            .split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "userId: ") else { return nil }
                return String(line[range.upperBound...].prefix { $0 != "," })
            }
        #expect(listed.count == 36 && Set(listed).isSubset(of: known), "\(listed)")
    }

    @Test func twoRunsOfOneExampleAtOnceGetTheirOwnPortsAndState() async throws {
        // Nothing fixed: two runs side by side do not meet (each its own port and database).
        let dirs = [TemporaryDirectory(), TemporaryDirectory()]
        async let first = RingcheckBinary.runSuite(
            ["run", "--target", Self.examples + "/reference.yaml", "basic.*", "--report-dir", dirs[0].file("r")],
            timeout: 120, environment: Self.withoutRingcheckOnPath)
        async let second = RingcheckBinary.runSuite(
            ["run", "--target", Self.examples + "/reference.yaml", "basic.*", "--report-dir", dirs[1].file("r")],
            timeout: 120, environment: Self.withoutRingcheckOnPath)
        let (a, b) = try await (first, second)
        #expect(a.status == 0, "\(a.stdout)\n\(a.stderr)")
        #expect(b.status == 0, "\(b.stdout)\n\(b.stderr)")
    }
}
