import Foundation
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck` copied or symlinked out of the build folder and run from elsewhere, as an installed
/// binary is: the suites are built in, the user's own are found through `RINGCHECK_SUITES` and
/// `--suite DIR`, re-run commands work from any folder, and no temporary folder is left behind.
@Suite struct InstalledBinaryTests {
    /// A copy of the binary in `dir/bin/rc`, and an empty `dir/tmp` for the child's TMPDIR.
    static func install(in dir: TemporaryDirectory) throws -> String {
        for sub in ["bin", "tmp", "work"] {
            try FileManager.default.createDirectory(atPath: dir.file(sub), withIntermediateDirectories: true)
        }
        return try dir.copyExecutable(RingcheckBinary.path, to: "bin/rc")
    }

    /// Runs `binary` with `arguments` from `dir/work` with TMPDIR `dir/tmp` (and `environment`).
    static func run(
        _ binary: String, _ arguments: [String], in dir: TemporaryDirectory, environment: [String: String] = [:],
        timeout: Double = 120
    ) async throws -> ProcessResult {
        var env = environment
        env["TMPDIR"] = dir.file("tmp")
        return try await runProcess(
            "/bin/sh", ["-c", #"cd "$0" && exec "$@""#, dir.file("work"), binary] + arguments, timeout: timeout,
            environment: env)
    }

    /// What is left in the child's TMPDIR.
    static func leftovers(_ dir: TemporaryDirectory) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir.file("tmp"))) ?? ["cannot read tmp"]
    }

    @Test func aCopiedBinaryReadsItsBuiltInSuitesFromAnyFolder() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        let rc = try Self.install(in: dir)
        let callx = try await Self.run(rc, ["list"], in: dir)
        #expect(callx.status == 0, "\(callx.stdout)\(callx.stderr)")
        #expect(callx.stdout.contains("payload.apns-invitation"))
        for profile in ["dialstack", "push-service", "onesignal"] {
            let r = try await Self.run(rc, ["list", "--profile", profile], in: dir)
            #expect(r.status == 0 && r.stdout.contains("(suite \(profile)"), "\(profile): \(r.stdout)\(r.stderr)")
        }
        let explain = try await Self.run(rc, ["explain", "payload.apns-invitation"], in: dir)
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(explain.stdout.contains("defined in builtin:callx/payload.yaml:"), "\(explain.stdout)")
        #expect(explain.stdout.contains("Re-run: ringcheck run payload.apns-invitation\n"), "\(explain.stdout)")
    }

    @Test func aSymlinkedBinaryReadsItsBuiltInSuites() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        _ = try Self.install(in: dir)
        let link = dir.file("bin/ringcheck-link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: RingcheckBinary.path)
        let r = try await Self.run(link, ["list", "--profile", "push-service"], in: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    @Test func theUsersSuitesComeFromRINGCHECK_SUITESAndAGivenFolderWins() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        let rc = try Self.install(in: dir)
        // A folder of own suites: callx without its basic scenarios, and a full copy elsewhere.
        let own = dir.file("own")
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        let shipped = TargetCommandTests.repositoryRoot + "/suites/callx"
        try FileManager.default.copyItem(atPath: shipped, toPath: own + "/callx")
        try FileManager.default.removeItem(atPath: own + "/callx/basic.yaml")
        try FileManager.default.copyItem(atPath: shipped, toPath: dir.file("work/full"))
        let basicID = "basic.answer-and-hang-up"
        let builtIn = try await Self.run(rc, ["list"], in: dir)
        #expect(builtIn.stdout.contains(basicID), "the built-in suite has \(basicID): \(builtIn.stdout)")

        let env = ["RINGCHECK_SUITES": own]
        let fromEnv = try await Self.run(rc, ["list"], in: dir, environment: env)
        #expect(fromEnv.status == 0 && !fromEnv.stdout.contains(basicID), "\(fromEnv.stdout)\(fromEnv.stderr)")
        let byName = try await Self.run(rc, ["list", "--suite", "callx"], in: dir, environment: env)
        #expect(byName.status == 0 && !byName.stdout.contains(basicID), "\(byName.stderr)")
        // A folder given explicitly (relative to the working folder) wins over both.
        let given = try await Self.run(rc, ["list", "--suite", "./full"], in: dir, environment: env)
        #expect(given.status == 0 && given.stdout.contains(basicID), "\(given.stderr)")
        // The built-in one by its own name, whatever RINGCHECK_SUITES holds.
        let named = try await Self.run(rc, ["list", "--suite", "builtin:callx"], in: dir, environment: env)
        #expect(named.status == 0 && named.stdout.contains(basicID), "\(named.stderr)")

        let missing = try await Self.run(rc, ["list", "--suite", "mine"], in: dir, environment: env)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("there is no suite 'mine'"), "\(missing.stderr)")
        #expect(missing.stderr.contains("RINGCHECK_SUITES (\(own))"), "\(missing.stderr)")
    }

    /// One failing scenario, run by the copy from another folder with a relative --suite: it exits 1,
    /// leaves TMPDIR empty, and its printed re-run command (absolute suite path) fails the same way
    /// when pasted in yet another folder.
    @Test func aRunLeavesNoTemporaryFolderAndItsReRunWorksFromElsewhere() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        let rc = try Self.install(in: dir)
        try FileManager.default.copyItem(
            atPath: TargetCommandTests.repositoryRoot + "/suites/callx", toPath: dir.file("work/mine"))
        let r = try await Self.run(
            rc,
            [
                "run", "payload.apns-invitation", "--suite", "mine", "--reference-defect", "apns-expiration-30",
                "--format", "console", "--report-dir", "r",
            ], in: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(Self.leftovers(dir).isEmpty, "left in TMPDIR: \(Self.leftovers(dir))")
        let suite = URL(fileURLWithPath: dir.file("work/mine")).standardizedFileURL.path
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("re-run: ") })
        let rerun = String(line[line.range(of: "re-run: ")!.upperBound...])
        #expect(
            rerun == "ringcheck run payload.apns-invitation --suite \(suite) --reference-defect apns-expiration-30",
            "\(rerun)")

        // Pasted in the binary's folder, with `ringcheck` on PATH.
        try FileManager.default.createSymbolicLink(atPath: dir.file("bin/ringcheck"), withDestinationPath: rc)
        let again = try await runProcess(
            "/bin/sh", ["-c", "cd \"$0\" && " + rerun + " --format console", dir.file("bin")], timeout: 120,
            environment: ["PATH": dir.file("bin") + ":/usr/bin:/bin", "TMPDIR": dir.file("tmp")])
        #expect(again.status == 1, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("payload.apns-invitation"))
        #expect(Self.leftovers(dir).isEmpty, "left in TMPDIR: \(Self.leftovers(dir))")
    }

    @Test func theFakeCallerLeavesNoTemporaryFolder() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        let rc = try Self.install(in: dir)
        let r = try await Self.run(
            rc, ["call", "--to", "user-b", "--auto-answer", "0.2", "--hangup-after", "0.2"], in: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(Self.leftovers(dir).isEmpty, "left in TMPDIR: \(Self.leftovers(dir))")
    }

    /// The mocks keep their key files in TMPDIR while they run, and remove them on SIGTERM or Ctrl-C.
    @Test(arguments: [SIGTERM, SIGINT])
    func theMocksRemoveTheirKeyFolderOnASignal(signal: Int32) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        _ = try Self.install(in: dir)
        let mocks = try MockStackCommandProcess(
            ["--env-file", "mocks.env", "--quiet"], directory: dir, environment: ["TMPDIR": dir.file("tmp")])
        #expect(await mocks.waitForFile("mocks.env"), "\(mocks.stderr)")
        let env = MockStackCommandProcess.parseEnvFile(
            try String(contentsOfFile: dir.file("mocks.env"), encoding: .utf8))
        let key = try #require(env["RINGCHECK_APNS_KEY_FILE"])
        let tmp = URL(fileURLWithPath: dir.file("tmp")).standardizedFileURL.path
        #expect(key.hasPrefix(tmp + "/") && key.hasSuffix(".p8"), "\(key)")
        #expect(FileManager.default.fileExists(atPath: key))
        #expect(FileManager.default.fileExists(atPath: env["RINGCHECK_FCM_SERVICE_ACCOUNT"] ?? "-"))
        mocks.send(signal)
        #expect(await mocks.exited(within: 30) == 0, "\(mocks.stderr)")
        #expect(Self.leftovers(dir).isEmpty, "left in TMPDIR: \(Self.leftovers(dir))")
    }

    /// Ctrl-C in the middle of a run stops the mocks and the backend, and their folders go with them.
    @Test(arguments: [false, true])
    func anInterruptedRunLeavesNoTemporaryFolder(referenceProcess: Bool) async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-installed")
        let rc = try Self.install(in: dir)
        let out = dir.file("run.out")
        let err = dir.file("run.err")
        // Scenarios that wait for their calls to expire, one at a time and 500 times over: the run would last
        // about half an hour, so a test process starved for a minute (every test starts at once on two cores)
        // still signals it mid-run; it is interrupted within seconds, or killed below. exec keeps the pid.
        let pid = try MockStackProcess.spawn(
            [
                "/bin/sh", "-c",
                #"cd "$0" && TMPDIR="$1" exec "$2" run 'expiry.*' --repeat 500 --concurrency 1 --report-dir r $3"#,
                dir.file("work"), dir.file("tmp"), rc, referenceProcess ? "--reference-process" : "",
            ], stdout: out, stderr: err)
        // Under way once the console says anything (the header, printed once the backend is up) and the
        // mocks' files are in TMPDIR.
        var started = false
        var keptFiles = false
        // Rounds of at least 20 ms (two minutes or more), not a clock that runs on while this process is starved.
        for _ in 0..<6_000 {
            if started && keptFiles { break }
            started = !((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").isEmpty
            keptFiles = !Self.leftovers(dir).isEmpty
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(started, "\((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        #expect(keptFiles, "the run keeps its mocks' files in TMPDIR while it runs")
        _ = kill(pid, SIGINT)
        let status = await offPoolWait(pid)
        if status == nil { MockStackProcess.kill(pid) }
        #expect(status == 130, "\((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        #expect(Self.leftovers(dir).isEmpty, "left in TMPDIR: \(Self.leftovers(dir))")
    }

    private func offPoolWait(_ pid: pid_t) async -> Int32? {
        await offPool { MockStackProcess.wait(pid, timeout: 60) }
    }
}
