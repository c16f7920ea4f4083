import Foundation
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kill -9` of a ringcheck leaves nothing behind: the children it started die with it, and the next
/// start removes the temporary folders (with the mocks' private keys) it could not remove itself.
@Suite(.heavyTraffic) struct KillNineTests {
    /// The `ringcheck-…` folders in `tmp`.
    static func folders(in tmp: String, prefix: String = "ringcheck-") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Waits until none of `processes` runs; those still running at the deadline.
    static func stillRunning(_ processes: [ProcessIdentity], within seconds: Int) async -> [ProcessIdentity] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if !processes.contains(where: \.isRunning) { return [] }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return processes.filter(\.isRunning)
    }

    @Test func theNextStartRemovesTheKeyFolderOfAKilledMocks() async throws {
        let work = TemporaryDirectory(prefix: "ringcheck-kill9-mocks")
        let tmp = work.file("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        // Left alone: a folder without an owner file, and one whose owner (this test) still runs.
        try FileManager.default.createDirectory(
            atPath: tmp + "/ringcheck-mocks-foreign", withIntermediateDirectories: true)
        let alive = try OwnedTemporaryDirectory.create(named: "ringcheck-mocks-alive", in: tmp)

        let first = try MockStackCommandProcess(
            ["--env-file", "first.env"], directory: work, environment: ["TMPDIR": tmp])
        #expect(await first.waitForFile("first.env"), "\(first.stdout)\(first.stderr)")
        let env = MockStackCommandProcess.parseEnvFile(
            try String(contentsOfFile: work.file("first.env"), encoding: .utf8))
        let keyFile = try #require(env["RINGCHECK_APNS_KEY_FILE"])
        let killed = (keyFile as NSString).deletingLastPathComponent
        #expect(FileManager.default.fileExists(atPath: keyFile))
        first.send(SIGKILL)
        #expect(await first.exited(within: 60) != nil)
        // What the kill leaves: the folder, with the private key in it.
        #expect(FileManager.default.fileExists(atPath: keyFile), "the kill left the key folder")

        let second = try MockStackCommandProcess(
            ["--env-file", "second.env"], directory: work, environment: ["TMPDIR": tmp])
        #expect(await second.waitForFile("second.env"), "\(second.stdout)\(second.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: killed), "the killed mocks' folder is removed at the next start")
        let left = Self.folders(in: tmp)
        #expect(left.contains("ringcheck-mocks-foreign") && left.contains("ringcheck-mocks-alive"), "\(left)")
        #expect(left.count == 3, "the second mocks' own folder and the two left alone: \(left)")
        second.send(SIGTERM)
        #expect(await second.exited(within: 60) != nil)
        #expect(Self.folders(in: tmp) == ["ringcheck-mocks-alive", "ringcheck-mocks-foreign"])
        try FileManager.default.removeItem(atPath: alive)
    }

    @Test func aKilledRunLeavesNoBackendRunningAndTheNextStartRemovesItsFolders() async throws {
        try await SuiteRunGate.exclusive {
            let dir = TemporaryDirectory(prefix: "ringcheck-kill9-run")
            let tmp = dir.file("tmp")
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
            let out = open(dir.file("stdout"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let child = try ChildProcess(
                [RingcheckBinary.path, "run", "--reference-process", "--report-dir", dir.file("report")], stdin: null,
                stdout: out, stderr: out, environment: ["TMPDIR": tmp])
            close(out)
            close(null)
            let ringcheck = ExitWatcher(child)
            var backends: [pid_t] = []
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                backends = RunLifecycleTests.referenceProcesses(startedBy: child.pid)
                let output = (try? String(contentsOfFile: dir.file("stdout"), encoding: .utf8)) ?? ""
                if backends.count == 2 && output.contains("[1/") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(backends.count == 2, "two serve-reference children are running")
            let identities = backends.map(ProcessIdentity.init)
            kill(child.pid, SIGKILL)
            let status = await ringcheck.exited(within: .seconds(60))
            #expect(status?.signal == SIGKILL)
            let survivors = await Self.stillRunning(identities, within: 60)
            for backend in survivors {
                kill(backend.pid, SIGKILL)
                Issue.record("serve-reference \(backend.pid) still runs a minute after ringcheck was killed")
            }
            let stale = Self.folders(in: tmp)
            #expect(stale.contains { $0.hasPrefix("ringcheck-mocks-") }, "the kill left the key folder: \(stale)")
            #expect(stale.contains { $0.hasPrefix("ringcheck-reference-\(child.pid)-") }, "\(stale)")

            let mocks = try MockStackCommandProcess(
                ["--env-file", "next.env"], directory: dir, environment: ["TMPDIR": tmp])
            #expect(await mocks.waitForFile("next.env"), "\(mocks.stdout)\(mocks.stderr)")
            let left = Self.folders(in: tmp)
            #expect(left.allSatisfy { !stale.contains($0) }, "the killed run's folders are removed: \(left)")
            #expect(left.count == 1, "only the new mocks' folder: \(left)")
            mocks.send(SIGTERM)
            #expect(await mocks.exited(within: 60) != nil)
        }
    }

    @Test func aKilledCallStopsTheBackendItStartedWithWhatItLaunchedInTheBackground() async throws {
        // A start command that leaves a server in the background, as `npm start &` would, and never becomes
        // ready: ringcheck waits for it when it is killed.
        let dir = TemporaryDirectory(prefix: "ringcheck-kill9-call")
        let path = try CallTargetCommandTests.neverReadyTarget(
            in: dir,
            start: "sleep 600 & echo $! > \(dir.file("background.pid")); echo $$ > \(dir.file("backend.pid")); "
                + "exec sleep 600", readyTimeout: "120s")
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        let child = try ChildProcess(
            [RingcheckBinary.path, "call", "--target", path, "--as", "a", "--to", "b"], stdin: null, stdout: null,
            stderr: null)
        close(null)
        let ringcheck = ExitWatcher(child)
        // Whole pid lines: a file that exists may not hold its pid yet, or part of it.
        let backend = await WrittenFile.pid(dir.file("backend.pid"))
        let background = await WrittenFile.pid(dir.file("background.pid"))
        let started = [backend, background].compactMap { $0 }.map(ProcessIdentity.init)
        #expect(started.count == 2 && started.allSatisfy(\.isRunning), "the start command ran")
        kill(child.pid, SIGKILL)
        #expect(await ringcheck.exited(within: .seconds(60))?.signal == SIGKILL)
        let survivors = await Self.stillRunning(started, within: 60)
        for process in survivors {
            kill(process.pid, SIGKILL)
            Issue.record("process \(process.pid) of the start command still runs a minute after ringcheck was killed")
        }
    }
}
