import Foundation
import Processes
import PushMocks
import TestSupport
import Testing

@testable import Conformance

#if canImport(Glibc)
    import Glibc
#endif

/// `BackendLifecycle` with small shell-script backends: start and ready, the errors a user sees when a
/// backend never answers or dies early, stop by signal and by command, restart by command and by
/// stop-and-start, and the environment the commands get.
@Suite struct BackendLifecycleTests {
    /// A backend that prints a line, then serves HTTP on `port` (python's http.server answers 200 on `/`).
    static func httpBackend(_ port: Int, banner: String = "backend starting") -> BackendCommand {
        .shell("echo \(banner); sleep 0.2; exec /usr/bin/python3 -m http.server \(port) --bind 127.0.0.1")
    }

    static func configuration(
        _ dir: TemporaryDirectory, start: BackendCommand?, ready: BackendReadiness? = nil, stop: BackendCommand? = nil,
        restart: BackendCommand? = nil, grace: Duration = .seconds(2)
    ) -> BackendLifecycleConfiguration {
        BackendLifecycleConfiguration(
            start: start, workingDirectory: dir.path, environment: ["BACKEND_MODE": "test"], ready: ready, stop: stop,
            stopGracePeriod: grace, restart: restart, logFile: dir.file("logs/backend.log"))
    }

    /// A lifecycle for `httpBackend` on a free port, and the URL it is ready at.
    static func httpLifecycle(_ dir: TemporaryDirectory, restart: BackendCommand? = nil) -> (BackendLifecycle, String) {
        let port = ClientTestPeer.freePort()
        let url = "http://127.0.0.1:\(port)/"
        let configuration = configuration(
            dir, start: httpBackend(port), ready: BackendReadiness(url: url), restart: restart)
        return (BackendLifecycle(configuration, mocks: nil), url)
    }

    static func get(_ url: String) async throws -> Int32 {
        try await runProcess("curl", ["-s", "-o", "/dev/null", "--max-time", "2", url]).status
    }

    @Test func startWaitsUntilReadyAndStopEndsTheProcessGroup() async throws {
        let dir = TemporaryDirectory()
        let (lifecycle, url) = Self.httpLifecycle(dir)
        try await lifecycle.start()
        let pid = ProcessIdentity(try #require(await lifecycle.pid))
        #expect(try await Self.get(url) == 0, "ready means it answers")
        #expect(await lifecycle.stop() == nil)
        #expect(!pid.isRunning)
        #expect(try await Self.get(url) != 0)
        let log = try String(contentsOfFile: dir.file("logs/backend.log"), encoding: .utf8)
        #expect(log.contains("backend starting"))
        #expect(log.contains("start: /bin/sh") == false, "the header shows the command line as written")
        #expect(log.contains("start: echo backend starting"))
        // A second stop does nothing.
        #expect(await lifecycle.stop() == nil)
    }

    @Test func aBackendThatNeverAnswersTimesOutWithTheURLAndItsOutput() async throws {
        let dir = TemporaryDirectory()
        let port = ClientTestPeer.freePort()
        let url = "http://127.0.0.1:\(port)/health"
        let lifecycle = BackendLifecycle(
            Self.configuration(
                // Its pid and start time, which `exec` keeps (the shell's name holds no space, so field 22
                // is the start time).
                dir,
                start: .shell("echo still warming up; echo $$ $(cut -d' ' -f22 /proc/$$/stat) > pid; exec sleep 600"),
                ready: BackendReadiness(url: url, timeout: .seconds(3), interval: .milliseconds(50))),
            mocks: nil)
        let started = ContinuousClock.now
        let error = await #expect(throws: BackendLifecycleError.self) { try await lifecycle.start() }
        let message = error?.message ?? ""
        #expect(message.contains("did not answer \(url) within"), "\(message)")
        #expect(message.contains("last error:"), "\(message)")
        #expect(message.contains(dir.file("logs/backend.log")), "\(message)")
        #expect(message.contains("still warming up"), "\(message)")
        // Long before the backend's 600 s sleep would end (generous: a busy CI machine is slow).
        #expect(ContinuousClock.now - started < .seconds(120))
        // What it started is stopped after the failure.
        let written = try String(contentsOfFile: dir.file("pid"), encoding: .utf8).split(separator: " ")
        let pid = try #require(written.count == 2 ? pid_t(written[0]) : nil)
        #expect(!ProcessIdentity(pid, startTime: String(written[1]).trimmed).isRunning)
    }

    @Test func aBackendThatExitsEarlyIsReportedWithItsStatusAndOutput() async throws {
        let dir = TemporaryDirectory()
        let port = ClientTestPeer.freePort()
        let lifecycle = BackendLifecycle(
            Self.configuration(
                dir, start: .shell("echo cannot open database >&2; exit 3"),
                ready: BackendReadiness(url: "http://127.0.0.1:\(port)/", timeout: .seconds(300))),
            mocks: nil)
        let started = ContinuousClock.now
        let error = await #expect(throws: BackendLifecycleError.self) { try await lifecycle.start() }
        let message = error?.message ?? ""
        #expect(message.contains("the backend exited with status 3 before it was ready"), "\(message)")
        #expect(message.contains("its output: \(dir.file("logs/backend.log"))"), "\(message)")
        #expect(message.contains("cannot open database"), "\(message)")
        // Far below the 300 s readiness timeout, even on a busy machine.
        #expect(ContinuousClock.now - started < .seconds(120), "an early exit does not wait for the timeout")
    }

    @Test func theOutputQuotedInAnErrorHasItsSecretsRedacted() async throws {
        let dir = TemporaryDirectory()
        let port = ClientTestPeer.freePort()
        let jwt =
            "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ"
            + ".MEUCIQDx7d_3nV9-kq2Zb8wPq1yT0aLr5sJm4cN6hG2fK8eR3AIgZ"
        let token = String(repeating: "0123456789abcdef", count: 4)
        var configuration = Self.configuration(
            dir, start: .shell("echo provider token $PROVIDER_JWT; echo push to $DEVICE_TOKEN failed >&2; exit 4"),
            ready: BackendReadiness(url: "http://127.0.0.1:\(port)/", timeout: .seconds(300)))
        // Through the environment, so only the backend's output carries them (not the command line).
        configuration.environment["PROVIDER_JWT"] = jwt
        configuration.environment["DEVICE_TOKEN"] = token
        let lifecycle = BackendLifecycle(configuration, mocks: nil)
        let error = await #expect(throws: BackendLifecycleError.self) { try await lifecycle.start() }
        let message = error?.message ?? ""
        #expect(message.contains("the backend exited with status 4 before it was ready"), "\(message)")
        #expect(!message.contains(jwt) && !message.contains(token), "\(message)")
        #expect(message.contains("provider token <redacted jwt kid=ABC123DEFG>"), "\(message)")
        #expect(message.contains("push to 0123…cdef failed"), "\(message)")
        // The log file is the user's own record: it keeps what the backend wrote.
        let log = try String(contentsOfFile: dir.file("logs/backend.log"), encoding: .utf8)
        #expect(log.contains(jwt) && log.contains(token))
    }

    @Test func aWindowCutInsideATokenLeavesOutTheFragment() throws {
        let dir = TemporaryDirectory()
        let token = String(repeating: "0123456789abcdef", count: 4)
        // 16,416 bytes: the last 16 KiB begin 24 digits into the token, leaving 40, too few to recognise.
        let filler = String(repeating: String(repeating: "y", count: 5_446) + "\n", count: 3) + "z\n"
        let text = "push to \(token)\n" + filler
        #expect(text.utf8.count == 16_416)
        try text.write(toFile: dir.file("backend.log"), atomically: true, encoding: .utf8)
        let lines = BackendLog(path: dir.file("backend.log")).lastLines()
        #expect(!lines.contains(String(token.suffix(40))))
        #expect(lines.hasSuffix("\n  z"))
    }

    @Test func aMissingProgramIsAClearError() async throws {
        let dir = TemporaryDirectory()
        let lifecycle = BackendLifecycle(
            Self.configuration(dir, start: .arguments(["./no-such-backend", "--serve"])), mocks: nil)
        let error = await #expect(throws: BackendLifecycleError.self) { try await lifecycle.start() }
        #expect(error?.message.contains("cannot run the start command './no-such-backend --serve'") == true)
        #expect(error?.message.contains("(in \(dir.path))") == true)
    }

    @Test func stopBySignalEscalatesToSIGKILLAndReachesBackgroundChildren() async throws {
        let dir = TemporaryDirectory()
        // The shell ignores SIGTERM; its background child writes its pid and lives on in the group.
        let script = "trap '' TERM; sleep 60 & echo $! > child; echo $$ > pid; while true; do sleep 0.1; done"
        let lifecycle = BackendLifecycle(
            Self.configuration(dir, start: .shell(script), grace: .milliseconds(500)), mocks: nil)
        try await lifecycle.start()
        // The whole pid line: the file exists (the shell opened it) before the pid is written into it.
        let child = ProcessIdentity(try #require(await WrittenFile.pid(dir.file("child"))))
        let shell = ProcessIdentity(try #require(await lifecycle.pid))
        let started = ContinuousClock.now
        #expect(await lifecycle.stop() == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(450), "SIGKILL only after the grace period")
        #expect(!shell.isRunning)
        #expect(!child.isRunning, "the background child is stopped with its group")
    }

    @Test func stopByCommandRunsTheCommandWithTheEnvironment() async throws {
        let dir = TemporaryDirectory()
        let lifecycle = BackendLifecycle(
            Self.configuration(
                dir, start: .shell("echo $$ > pid; exec sleep 600"),
                stop: .shell("echo stopping in mode $BACKEND_MODE; kill -TERM $(cat pid)")),
            mocks: nil)
        try await lifecycle.start()
        let pid = ProcessIdentity(try #require(await lifecycle.pid))
        #expect(await lifecycle.stop() == nil)
        #expect(!pid.isRunning)
        let log = try String(contentsOfFile: dir.file("logs/backend.log"), encoding: .utf8)
        #expect(log.contains("stopping in mode test"))
    }

    @Test func aFailingStopCommandIsReportedAndTheProcessStillStops() async throws {
        let dir = TemporaryDirectory()
        let lifecycle = BackendLifecycle(
            Self.configuration(
                dir, start: .shell("exec sleep 600"), stop: .shell("echo no such service; exit 5"),
                grace: .milliseconds(300)),
            mocks: nil)
        try await lifecycle.start()
        let pid = ProcessIdentity(try #require(await lifecycle.pid))
        let problem = await lifecycle.stop()
        #expect(problem?.contains("the stop command 'echo no such service; exit 5' exited with status 5") == true)
        #expect(problem?.contains("no such service") == true)
        #expect(!pid.isRunning)
    }

    @Test func restartByCommandThenReady() async throws {
        let dir = TemporaryDirectory()
        let (lifecycle, _) = Self.httpLifecycle(dir, restart: .shell("echo restarted >> restarts"))
        try await lifecycle.start()
        let pid = await lifecycle.pid
        try await lifecycle.restart()
        #expect(try String(contentsOfFile: dir.file("restarts"), encoding: .utf8) == "restarted\n")
        #expect(await lifecycle.pid == pid, "the restart command manages the process itself")
        await lifecycle.stop()

        let failing = BackendLifecycle(
            Self.configuration(dir, start: .shell("exec sleep 600"), restart: .shell("echo nope; exit 1")), mocks: nil)
        try await failing.start()
        let error = await #expect(throws: BackendLifecycleError.self) { try await failing.restart() }
        #expect(error?.message.contains("the restart command 'echo nope; exit 1' exited with status 1") == true)
        await failing.stop()
    }

    @Test func restartWithoutACommandStopsAndStartsAgain() async throws {
        let dir = TemporaryDirectory()
        let (lifecycle, url) = Self.httpLifecycle(dir)
        try await lifecycle.start()
        let first = ProcessIdentity(try #require(await lifecycle.pid))
        try await lifecycle.restart()
        let second = ProcessIdentity(try #require(await lifecycle.pid))
        #expect(first.pid != second.pid)
        #expect(!first.isRunning)
        #expect(try await Self.get(url) == 0)
        await lifecycle.stop()
        #expect(!second.isRunning)
        // After the final stop nothing starts again.
        await #expect(throws: BackendLifecycleError.self) { try await lifecycle.restart() }

        let noStart = BackendLifecycle(Self.configuration(dir, start: nil), mocks: nil)
        let error = await #expect(throws: BackendLifecycleError.self) { try await noStart.restart() }
        #expect(error?.message.contains("neither a restart nor a start command") == true)
    }

    static let mocks = MockSettings(
        apnsURL: "https://127.0.0.1:1001", apnsSandboxURL: "https://127.0.0.1:1002",
        fcmURL: "https://127.0.0.1:1003",
        oauthTokenURL: "https://127.0.0.1:1004/token", caFile: "/tmp/ca.pem", apnsKeyFile: "/tmp/key.p8",
        apnsKeyID: "KEYID12345", apnsTeamID: "TEAMID1234", apnsBundleID: "com.example",
        fcmServiceAccountFile: "/tmp/sa.json", fcmProjectID: "proj", controlURL: "http://127.0.0.1:1005")

    /// `${NAME}` of a mock setting is filled in with the running mocks' value in the environment, the argument
    /// lists and `ready.url`, once; a shell line is left to the shell, and a name the mocks do not write stays.
    @Test func theMockSettingsAreFilledInWhereTheConfigurationNamesThem() {
        let dir = TemporaryDirectory()
        var configuration = Self.configuration(
            dir, start: .arguments(["backend", "--apns", "${RINGCHECK_APNS_URL}"]),
            ready: BackendReadiness(url: "${RINGCHECK_CONTROL_URL}/health"), stop: .shell("stop ${RINGCHECK_APNS_URL}"))
        configuration.environment = [
            "CA": "${RINGCHECK_CA_FILE}", "OTHER": "${NOT_A_SETTING}", "PROJECT": "${RINGCHECK_FCM_PROJECT_ID}",
        ]
        var mocks = Self.mocks
        mocks.fcmProjectID = "${RINGCHECK_CA_FILE}"
        let lifecycle = BackendLifecycle(configuration, mocks: mocks)
        let filled = lifecycle.configuration
        #expect(filled.start?.argv == ["backend", "--apns", "https://127.0.0.1:1001"])
        #expect(filled.ready?.url == "http://127.0.0.1:1005/health")
        #expect(filled.stop == .shell("stop ${RINGCHECK_APNS_URL}"))
        #expect(
            filled.environment == ["CA": "/tmp/ca.pem", "OTHER": "${NOT_A_SETTING}", "PROJECT": "${RINGCHECK_CA_FILE}"])
        #expect(lifecycle.environment["CA"] == "/tmp/ca.pem")
    }

    @Test func commandsGetTheMockSettingsAndTheTargetsEnvironment() async throws {
        let dir = TemporaryDirectory()
        let mocks = Self.mocks
        var configuration = Self.configuration(
            dir, start: .arguments(["/bin/sh", "-c", "env > env.txt; echo end-of-env >> env.txt; exec sleep 600"]))
        configuration.environment["RINGCHECK_FCM_PROJECT_ID"] = "overridden"
        let lifecycle = BackendLifecycle(configuration, mocks: mocks)
        try await lifecycle.start()
        // All of `env`'s output: the file exists, and holds part of it, before `env` has written the rest.
        let written = await WrittenFile.text(dir.file("env.txt")) { $0.hasSuffix("end-of-env\n") }
        await lifecycle.stop()
        let env = try #require(written)
        #expect(env.contains("RINGCHECK_APNS_URL=https://127.0.0.1:1001"))
        #expect(env.contains("RINGCHECK_CONTROL_URL=http://127.0.0.1:1005"))
        // The topic is the bundle ID; the VoIP topic has its own name.
        #expect(env.contains("RINGCHECK_APNS_TOPIC=com.example\n"))
        #expect(env.contains("RINGCHECK_APNS_BUNDLE_ID=com.example\n"))
        #expect(env.contains("RINGCHECK_APNS_VOIP_TOPIC=com.example.voip\n"))
        #expect(env.contains("BACKEND_MODE=test"))
        #expect(env.contains("RINGCHECK_FCM_PROJECT_ID=overridden"), "the target's environment wins")
        #expect(env.contains("PATH="), "ringcheck's own environment is kept")
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
