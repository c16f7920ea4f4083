import Foundation
import JSON
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck load` stopped by a real signal to the built binary, as `run` is: no more calls start, the
/// calls in flight finish and are judged, load-report.json is written (matching its schema, marked
/// interrupted) and it exits 128 + the signal.
@Suite(.serialized) struct LoadInterruptTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalDuringTheCallsWritesTheReportAndExitsAsRunDoes(_ signal: Int32) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-load-signal")
        let out = dir.file("stdout")
        // Ten minutes of calls: the signal comes long before the plan would end.
        let pid = try MockStackProcess.spawn(
            [RingcheckBinary.path, "load", "--rate", "2", "--duration", "600", "--report-dir", dir.file("report")],
            stdout: out, stderr: dir.file("stderr"))
        var reaped = false
        defer { if !reaped { MockStackProcess.kill(pid) } }
        // The announcement comes once the driver handles signals.
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            if text.contains("ringcheck load: callx on") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(pid, signal)
        let status = await offPool { MockStackProcess.wait(pid, timeout: 300) }
        reaped = status != nil
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: dir.file("stderr"), encoding: .utf8)) ?? ""
        #expect(status == 128 + signal, "\(text)\n\(stderr)")
        let data = try #require(FileManager.default.contents(atPath: dir.file("report/load-report.json")), "\(text)")
        let report = try JSONValue.parse(Array(data))
        #expect(try LoadReportSchema.violations(of: report) == [])
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(report["interrupted"]?["signal"]?.stringValue == name)
        #expect(report["exitCode"]?.int64Value == Int64(128 + signal))
        #expect(text.contains("interrupted by \(name)"), "\(text)")
        #expect(text.contains("(exit \(128 + signal))"), "\(text)")
    }

    /// The schema is strict: a report with a field it does not know, or without its verdict, fails it.
    @Test func theSchemaRefusesAnUnknownFieldAndAMissingVerdict() throws {
        let minimal: JSONValue = [
            "schema": "ringcheck.load/1", "verdict": "conformant", "exitCode": 0, "profile": "callx",
            "target": "t", "plan": "4 calls/s", "startedAtMs": 1, "callSeconds": 1, "totalSeconds": 1,
            "callsStarted": 1, "callsFinished": 1, "callsFailed": 0, "scripts": ["race": 1], "callsPerSecond": 1,
            "requests": 3, "transportErrors": 0, "pushes": 2, "invitations": 2, "endpoints": [], "pushLatency": [],
            "historyViolations": [], "invariantViolations": [], "problems": [],
        ]
        #expect(try LoadReportSchema.violations(of: minimal) == [])
        #expect(try !LoadReportSchema.violations(of: minimal.setting("scenarios", to: [])).isEmpty)
        guard case .object(var fields) = minimal else { return }
        fields.removeAll { $0.key == "verdict" }
        #expect(try !LoadReportSchema.violations(of: .object(fields)).isEmpty)
    }
}
