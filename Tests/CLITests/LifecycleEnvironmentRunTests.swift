import Foundation
import TestSupport
import Testing

/// `lifecycle.environment` through `ringcheck run --target`: every `${NAME}` the run knows reaches the started
/// backend filled in (a mock setting such as the OneSignal mock's app, a run variable, one of ringcheck's own
/// environment), and a name the run does not know stops the run before anything starts (exit 2, file:line:col).
@Suite struct LifecycleEnvironmentRunTests {
    /// A target whose backend writes its environment to `env.txt` beside the file and exits, so the run ends at
    /// once ("cannot start the backend", exit 3) with what the backend received on disk.
    static func target(_ environment: String) -> String {
        """
        baseURL: http://127.0.0.1:9
        \(TargetCommandTests.users)
        lifecycle:
          start: "env > env.txt; exit 1"
          ready: {url: "http://127.0.0.1:9/"}
          environment:
        \(environment)
        """
    }

    static func lines(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            out[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return out
    }

    /// `ringcheck run` on `target(environment)` written to `dir/backend.yaml`, with `own` added to ringcheck's
    /// environment.
    static func run(_ environment: String, in dir: TemporaryDirectory, own: [String: String] = [:]) async throws
        -> ProcessResult
    {
        let path = try dir.write("backend.yaml", target(environment))
        let env = ProcessInfo.processInfo.environment.merging(own) { _, mine in mine }
        return try await RingcheckBinary.run(
            ["run", "--target", path, "--report-dir", dir.file("r")], timeout: 120, environment: env)
    }

    @Test func theBackendReceivesEveryVariableFilledIn() async throws {
        let dir = TemporaryDirectory()
        let r = try await Self.run(
            """
                ONESIGNAL_APP_ID: "${RINGCHECK_ONESIGNAL_APP_ID}"
                ONESIGNAL_API: "${RINGCHECK_ONESIGNAL_URL}/api/v1"
                STATE: "${RINGCHECK_BACKEND_STATE_DIR}/db"
                FROM_RINGCHECK: "${RINGCHECK_TEST_OWN_SETTING}-x"
            """, in: dir, own: ["RINGCHECK_TEST_OWN_SETTING": "own-value"])
        #expect(r.status == 3, "\(r.stdout)\n\(r.stderr)")
        let env = try Self.lines(dir.file("env.txt"))
        let appId = try #require(env["RINGCHECK_ONESIGNAL_APP_ID"])
        let url = try #require(env["RINGCHECK_ONESIGNAL_URL"])
        #expect(!appId.isEmpty && env["ONESIGNAL_APP_ID"] == appId, "\(env)")
        #expect(env["ONESIGNAL_API"] == url + "/api/v1", "\(env)")
        let state = try #require(env["STATE"])
        #expect(state.hasSuffix("/db") && !state.contains("${"), "\(env)")
        #expect(env["FROM_RINGCHECK"] == "own-value-x", "\(env)")
        // The summary shows what the backend got, not the text of the file.
        #expect(r.stdout.contains("RINGCHECK_ONESIGNAL_URL=\(url)"), "\(r.stdout)")
    }

    @Test func aNameTheRunDoesNotKnowIsRefusedWhereItStands() async throws {
        let dir = TemporaryDirectory()
        let r = try await Self.run("    ONESIGNAL_APP_ID: \"${RINGCHECK_ONESIGNAL_APPID}\"", in: dir)
        #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
        #expect(
            r.stderr.contains(
                "backend.yaml:10:23: lifecycle.environment.ONESIGNAL_APP_ID: ${RINGCHECK_ONESIGNAL_APPID} is no "
                    + "variable this run knows (did you mean 'RINGCHECK_ONESIGNAL_APP_ID'?): use a run variable"),
            "\(r.stderr)")
        #expect(r.stderr.contains("or a variable set in the environment ringcheck runs in"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("env.txt")), "nothing was started")
    }
}
