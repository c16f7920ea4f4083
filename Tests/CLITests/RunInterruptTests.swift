import Foundation
import JSON
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C or SIGTERM during `ringcheck run`: the reports of what ran are still written, marked interrupted,
/// the scenarios that did not finish are listed as not run, and ringcheck exits 128 + the signal.
@Suite struct RunInterruptTests {
    /// Starts the whole suite on the embedded reference, waits until a scenario has finished (its progress
    /// line is out), sends `signal` and returns the exit status and the output.
    static func interruptedRun(_ signal: Int32, dir: TemporaryDirectory) async throws -> (Int32?, String) {
        try await SuiteRunGate.exclusive {
            let out = open(dir.file("stdout"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let child = try ChildProcess(
                [RingcheckBinary.path, "run", "--concurrency", "2", "--report-dir", dir.path], stdin: null,
                stdout: out, stderr: out, environment: ["NO_COLOR": "1"])
            close(out)
            close(null)
            let ringcheck = ExitWatcher(child)
            let deadline = ContinuousClock.now + .seconds(120)
            var started = false
            while ContinuousClock.now < deadline {
                let output = (try? String(contentsOfFile: dir.file("stdout"), encoding: .utf8)) ?? ""
                if output.contains("[1/") || output.contains("✔") { started = true; break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(started, "no scenario finished within 120 s")
            kill(child.pid, signal)
            let status = await ringcheck.exited(within: .seconds(60))
            if status == nil { child.signalGroup(SIGKILL) }
            return (status?.exitCode, (try? String(contentsOfFile: dir.file("stdout"), encoding: .utf8)) ?? "")
        }
    }

    @Test func ctrlCWritesTheReportsOfWhatRanMarkedInterrupted() async throws {
        let dir = TemporaryDirectory()
        let (status, output) = try await Self.interruptedRun(SIGINT, dir: dir)
        #expect(status == 130, "\(output.suffix(2000))")
        #expect(output.contains("ringcheck run: interrupted; the reports of the"))
        for name in ["report.json", "junit.xml", "report.html", "summary.md"] {
            #expect(FileManager.default.fileExists(atPath: dir.file(name)), "\(name) missing")
        }
        try ReportConformance.checkDirectory(dir.path)
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("report.json")))))
        #expect(report["interrupted"]?["signal"]?.stringValue == "SIGINT")
        #expect(report["exitCode"]?.intValue == 130)
        #expect(report["verdict"]?.stringValue == "inconclusive")
        let ran = report["scenarios"]?.arrayValue ?? []
        let notRun = report["notRun"]?.arrayValue ?? []
        #expect(!ran.isEmpty && !notRun.isEmpty, "ran \(ran.count), not run \(notRun.count)")
        // What finished before the signal passed: the backend was stopped after the snapshot, not before.
        #expect(ran.allSatisfy { $0["status"]?.stringValue == "pass" })
        #expect(notRun.allSatisfy { $0["reason"]?.stringValue == "interrupted by SIGINT" })
        let summary = try String(contentsOfFile: dir.file("summary.md"), encoding: .utf8)
        #expect(
            summary.contains("inconclusive: interrupted (exit 130)") && summary.contains("**Interrupted by SIGINT**"))
        let junit = try String(contentsOfFile: dir.file("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<property name=\"interrupted\" value=\"SIGINT\"/>"))
        #expect(junit.contains("<skipped message=\"not run: interrupted by SIGINT\"/>"))
        let html = try String(contentsOfFile: dir.file("report.html"), encoding: .utf8)
        #expect(html.contains("Interrupted by SIGINT"))
    }

    @Test func sigtermDoesTheSameWithExit143() async throws {
        let dir = TemporaryDirectory()
        let (status, output) = try await Self.interruptedRun(SIGTERM, dir: dir)
        #expect(status == 143, "\(output.suffix(2000))")
        try ReportConformance.checkDirectory(dir.path)
        let report = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("report.json")))))
        #expect(report["interrupted"]?["signal"]?.stringValue == "SIGTERM")
        #expect(report["exitCode"]?.intValue == 143)
    }
}
