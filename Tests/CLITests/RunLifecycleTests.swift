import Foundation
import JSON
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck run` restarting the backend mid-call (the seed's "engine restart"), and stopping what it
/// started when interrupted.
@Suite struct RunLifecycleTests {
    static func report(_ dir: TemporaryDirectory) throws -> JSONValue {
        try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("report.json")))))
    }

    /// Live `serve-reference` processes started by the ringcheck with process ID `parent` (their database
    /// folder is named after it).
    static func referenceProcesses(startedBy parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name),
                let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return nil }
            let cmdline = String(decoding: data, as: UTF8.self)
            guard cmdline.contains("serve-reference"), cmdline.contains("ringcheck-reference-\(parent)-") else {
                return nil
            }
            let stat = (try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").first == "Z" ? nil : pid
        }
    }

    /// The run numbers (`r3-`) of the installations a backend log shows requests for.
    static func runsInLog(_ path: String) throws -> Set<String> {
        let log = try String(contentsOfFile: path, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "/v1/installations/(r[0-9]+)-")
        let range = NSRange(log.startIndex..., in: log)
        return Set(
            pattern.matches(in: log, range: range).compactMap {
                Range($0.range(at: 1), in: log).map { String(log[$0]) }
            })
    }

    @Test func restartScenariosPassOnASecondInstanceOfTheEmbeddedBackend() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            ["run", "restart.*", "basic.*", "--format", "console,json", "--report-dir", dir.path], timeout: 90,
            environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let progress = r.stdout.split(separator: "\n").filter { $0.hasPrefix("[") && $0.contains("/4] ") }
        #expect(progress.count == 4)
        let scenarios = try Self.report(dir)["scenarios"]?.arrayValue ?? []
        #expect(scenarios.count == 4)
        #expect(scenarios.allSatisfy { $0["status"]?.stringValue == "pass" })
        #expect(try Self.report(dir).serialized().contains("backend restarted and ready again after"))
        // The restart scenarios' devices registered with the second instance only, the others' with
        // the first: each restart restarted a backend no other scenario was using.
        let second = try Self.runsInLog(dir.file("backend-restart-instance.log"))
        let first = try Self.runsInLog(dir.file("backend.log"))
        #expect(second.count == 2 && first.count == 2, "\(second) \(first)")
        #expect(second.isDisjoint(with: first), "\(second) \(first)")
    }

    @Test func aBackendProcessIsRestartedThroughItsLifecycle() async throws {
        let dir = TemporaryDirectory()
        let r = try await RingcheckBinary.runSuite(
            [
                "run", "restart.*", "basic.cancel-before-answer", "--reference-process", "--format", "json",
                "--report-dir", dir.path,
            ], timeout: 90)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let scenarios = try Self.report(dir)["scenarios"]?.arrayValue ?? []
        #expect(scenarios.map { $0["status"]?.stringValue } == ["pass", "pass", "pass"], "\(scenarios)")
        // The restart scenarios run on a second serve-reference child: its first start and one per
        // restart, each a new process; the first child is started once and never restarted.
        let log = try String(contentsOfFile: dir.file("backend-restart-instance.log"), encoding: .utf8)
        #expect(log.components(separatedBy: ": start: ").count - 1 == 3, "\(log)")
        let firstLog = try String(contentsOfFile: dir.file("backend.log"), encoding: .utf8)
        #expect(firstLog.components(separatedBy: ": start: ").count - 1 == 1, "\(firstLog)")
        #expect(!log.contains("token-u") && !firstLog.contains("token-u"), "the logs show no account token")
    }

    @Test func ctrlCStopsTheBackendItStarted() async throws {
        try await SuiteRunGate.exclusive {
            let dir = TemporaryDirectory()
            let out = open(dir.file("stdout"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let child = try ChildProcess(
                [RingcheckBinary.path, "run", "--reference-process", "--report-dir", dir.path], stdin: null,
                stdout: out, stderr: out)
            close(out)
            close(null)
            let ringcheck = ExitWatcher(child)
            // Wait until both backend processes are up and scenarios are running: the second instance may come up
            // after the first scenario began (once the run was interrupted as soon as one backend showed, the
            // second was not there yet). Rounds of at least 50 ms, not a clock that runs on while this test
            // process is starved.
            var backends: [pid_t] = []
            for _ in 0..<1_200 {
                backends = Self.referenceProcesses(startedBy: child.pid)
                let output = (try? String(contentsOfFile: dir.file("stdout"), encoding: .utf8)) ?? ""
                if backends.count >= 2 && output.contains("[1/") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            // The backend and its second instance, for the restart scenarios.
            #expect(backends.count == 2, "two serve-reference children are running")
            let identities = backends.map(ProcessIdentity.init)
            kill(child.pid, SIGINT)
            let status = await ringcheck.exited(within: .seconds(30))
            if status == nil { child.signalGroup(SIGKILL) }
            let output = (try? String(contentsOfFile: dir.file("stdout"), encoding: .utf8)) ?? ""
            #expect(status?.exitCode == 130, "\(String(describing: status)) \(output.suffix(2000))")
            #expect(output.contains("interrupted (signal 2)"))
            #expect(Self.referenceProcesses(startedBy: child.pid).isEmpty, "no orphan serve-reference")
            for backend in identities { #expect(!backend.isRunning, "backend \(backend.pid) still exists") }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
                .filter { $0.hasPrefix("ringcheck-reference-\(child.pid)-") }
            #expect(leftovers.isEmpty, "the backend's database folder is removed")
        }
    }
}
