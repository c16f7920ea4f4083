import Foundation
import TestSupport
import Testing

/// What `ringcheck run` prints, through the built binary: grouped failures, `-q`, `--verbose`, the
/// console beside `--format`, the live line only on a terminal, and selections that select nothing.
@Suite struct RunConsoleOutputTests {
    static let plain = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
    static let defect = [
        "payload.apns-invitation", "payload.fcm-invitation", "--reference-defect", "apns-expiration-30",
    ]

    @Test func formatJunitStillPrintsTheConsoleAndWritesOnlyJunit() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run"] + Self.defect + ["--format", "junit", "--report-dir", dir.path], timeout: 90,
            environment: Self.plain)
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("── MUST CALLX-APNS-5 failed in 1 scenario"))
        #expect(r.stdout.contains("Verdict: non-conformant (exit 1)"))
        #expect(r.stdout.contains("[2/2] "))
        #expect(FileManager.default.fileExists(atPath: dir.file("junit.xml")))
        #expect(!FileManager.default.fileExists(atPath: dir.file("report.json")))
        // Not a terminal: no live line, no colours.
        #expect(!r.stdout.contains("\r") && !r.stdout.contains("\u{1B}"))
        #expect(!r.stdout.contains("running payload."))
    }

    @Test func quietPrintsTheVerdictOnlyAndVerbosePrintsTheCaptures() async throws {
        let dir = TemporaryDirectory()
        let quiet = try await RingcheckBinary.runSuite(
            ["run"] + Self.defect + ["-q", "--format", "json", "--report-dir", dir.file("q")], timeout: 90,
            environment: Self.plain)
        #expect(quiet.status == 1)
        #expect(quiet.stdout == "Verdict: non-conformant (exit 1)\n", "\(quiet.stdout)")
        let verbose = try await RingcheckBinary.runSuite(
            ["run"] + Self.defect + ["--verbose", "--format", "json", "--report-dir", dir.file("v")], timeout: 90,
            environment: Self.plain)
        #expect(verbose.status == 1)
        // The full capture: every member of its JSON, as the grouped form leaves out.
        #expect(verbose.stdout.contains("\"connectionId\""))
        #expect(verbose.stdout.contains("── payload.apns-invitation (fail)"))
        let both = try await RingcheckBinary.run(["run", "-q", "--verbose"])
        #expect(both.status == 2 && both.stderr.contains("--quiet and --verbose exclude each other"))
    }

    @Test func aTerminalGetsTheLiveLine() async throws {
        let dir = TemporaryDirectory()
        // script(1) gives the run a pseudo-terminal for standard output.
        let command = [
            RingcheckBinary.path, "run", "payload.apns-invitation", "--format", "json", "--report-dir", dir.path,
        ]
        .map { "'" + $0 + "'" }.joined(separator: " ")
        let r = try await SuiteRunGate.exclusive {
            try await runProcess("script", ["-qefc", command, "/dev/null"], timeout: 90, environment: Self.plain)
        }
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("\r\u{1B}[2K[0/1] running payload.apns-invitation ("), "\(r.stdout.debugDescription)")
        #expect(r.stdout.contains("\r\u{1B}[2K[1/1] "))
        // The report files never hold the terminal's control sequences.
        let json = try String(contentsOfFile: dir.file("report.json"), encoding: .utf8)
        #expect(!json.contains("running payload") && !json.contains("\\u001b"))
    }

    @Test func aSelectionOfNothingIsAUsageErrorWithSuggestions() async throws {
        let tag = try await RingcheckBinary.run(["run", "--tag", "smok"])
        #expect(tag.status == 2)
        #expect(tag.stderr.contains("no scenario has the tag 'smok'; close tags: smoke"), "\(tag.stderr)")
        let glob = try await RingcheckBinary.run(["run", "arbitraton.*"])
        #expect(glob.status == 2)
        #expect(glob.stderr.contains("no scenario matches 'arbitraton.*'; close to 'arbitraton.*': arbitration."))
        let id = try await RingcheckBinary.run(["run", "basic.answer-and-hangup"])
        #expect(id.status == 2 && id.stderr.contains("basic.answer-and-hang-up"), "\(id.stderr)")
        let both = try await RingcheckBinary.run(["run", "basic.*", "--tag", "payload"])
        #expect(both.status == 2)
        #expect(
            both.stderr.contains("no scenario matches 'basic.*' with the tag 'payload'; 'basic.*' carries the tags: "))
        #expect(!both.stdout.contains("Verdict"))
    }
}
