import Foundation
import JSON
import PushMocks
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The control-API examples of docs/mocks-and-control-api.md work when pasted: its `sh` blocks are taken
/// from the page as written and run with /bin/sh in the folder where a real `ringcheck mocks --env-file
/// mocks.env` runs, as the page tells the user to.
@Suite struct ControlAPIDocExampleTests {
    /// `ringcheck mocks` exited or wrote no env file in time.
    struct MocksNotStarted: Error, CustomStringConvertible {
        var output: String
        var description: String { "ringcheck mocks wrote no mocks.env: \(output)" }
    }

    static let page = "docs/mocks-and-control-api.md"

    /// The page's one-line curl commands on the control API (continuations joined), each up to a pipe
    /// or a comment. A command whose quote spans lines (a body) is left to the test of its block.
    static func controlCurlCommands(_ blocks: [String]) -> [String] {
        blocks.flatMap { block in
            block.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").compactMap { line -> String? in
                let code = line.components(separatedBy: " #").first ?? ""
                let command = (code.components(separatedBy: " | ").first ?? "").trimmingCharacters(in: .whitespaces)
                guard command.hasPrefix("curl "), command.contains("$RINGCHECK_CONTROL_URL"),
                    command.filter({ $0 == "'" }).count % 2 == 0
                else { return nil }
                return command
            }
        }
    }

    /// Starts `ringcheck mocks --env-file mocks.env` in a new folder and waits for the file.
    static func startMocks() async throws -> (MockStackCommandProcess, MockStackClients) {
        let dir = TemporaryDirectory(prefix: "ringcheck-doc-control")
        let mocks = try MockStackCommandProcess(["--env-file", "mocks.env"], directory: dir)
        // Generous: key generation competes with the rest of the suite on a loaded machine.
        guard await mocks.waitForFile("mocks.env", timeout: 120) else {
            throw MocksNotStarted(output: mocks.stdout + mocks.stderr)
        }
        let env = MockStackCommandProcess.parseEnvFile(
            try String(contentsOfFile: dir.file("mocks.env"), encoding: .utf8))
        return (mocks, MockStackClients(settings: try MockSettings(environment: env), scratch: dir))
    }

    /// Runs `script` with /bin/sh in `dir`, as a user pastes it there.
    static func runPasted(_ script: String, in dir: TemporaryDirectory) async throws -> ProcessResult {
        let file = try dir.write("pasted-\(UUID().uuidString).sh", script)
        return try await MockStackProcess.run(
            ["/bin/sh", "-c", #"cd "$0" && exec /bin/sh "$1""#, dir.path, file], scratch: dir, timeout: 120)
    }

    @Test func theFaultPlanExampleInstallsItsPlan() async throws {
        let examples = try MarkdownDocument(Self.page).fencedBlocks(language: "sh").filter {
            $0.contains("$RINGCHECK_CONTROL_URL/v1/faults\"") && $0.contains(" -d ")
        }
        try #require(examples.count == 1, "the page's fault-plan example: \(examples)")
        let (mocks, clients) = try await Self.startMocks()
        defer { mocks.send(SIGTERM) }

        let run = try await Self.runPasted(examples[0], in: clients.scratch)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // The last command lists the plans: its output is the same list as asking the API.
        let listed = try await clients.control("GET", "/v1/faults")
        let faults = try #require(listed.json?["faults"]?.arrayValue)
        #expect(faults.count == 1, "\(listed.body)")
        let plan = try #require(faults.first)
        #expect(plan["id"] == "apns-outage" && plan["mock"] == "apns" && plan["times"] == 2)
        #expect(plan["remaining"] == 2 && plan["applied"] == 0 && plan["retryAfter"] == 5)
        #expect(plan.value(atPath: "respond.reason") == "ServiceUnavailable")
        #expect(run.stdout.contains(#""id" : "apns-outage""#) || run.stdout.contains(#""id": "apns-outage""#))
        #expect(!run.stdout.contains(#""error""#), "\(run.stdout)")
    }

    @Test func everyControlAPICurlLineAnswersWithoutAnError() async throws {
        let commands = Self.controlCurlCommands(try MarkdownDocument(Self.page).fencedBlocks(language: "sh"))
        #expect(commands.count >= 3, "\(commands)")
        let (mocks, clients) = try await Self.startMocks()
        defer { mocks.send(SIGTERM) }
        for command in commands {
            // `-w` makes the status visible without changing what the line prints before it.
            let run = try await Self.runPasted(
                ". ./mocks.env\n" + command + " -w '\\nstatus=%{http_code}\\n'\n", in: clients.scratch)
            let status = run.stdout.split(separator: "\n").last ?? ""
            #expect(run.status == 0 && status.hasPrefix("status=2"), "\(command): \(run.stdout)\(run.stderr)")
        }
    }
}
