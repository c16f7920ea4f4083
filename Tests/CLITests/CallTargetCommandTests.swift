import Foundation
import JSON
import Processes
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck call --target FILE`: the fake caller against a backend it knows only through a target
/// file — the reference backend in its alternate API shape, which ringcheck starts after its mocks.
@Suite struct CallTargetCommandTests {
    /// The shipped alternate example on a free port, with `ringcheck` on PATH for its start command;
    /// the users named in `without` are left out of its `users:`.
    static func alternateTarget(_ dir: TemporaryDirectory, without: [String] = []) throws -> (
        path: String, environment: [String: String]
    ) {
        let port = try #require(LoopbackPort.free())
        let example = try String(
            contentsOfFile: TargetCommandTests.repositoryRoot + "/examples/targets/reference-alternate.yaml",
            encoding: .utf8)
        let kept = example.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !without.contains { line.hasPrefix("  \($0): {userId:") }
        }
        #expect(kept.count == example.split(separator: "\n", omittingEmptySubsequences: false).count - without.count)
        let path = try dir.write(
            "alternate.yaml", kept.joined(separator: "\n").replacingOccurrences(of: "8090", with: "\(port)"))
        var env = CallCommandTests.plain
        env["PATH"] =
            (RingcheckBinary.path as NSString).deletingLastPathComponent + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        return (path, env)
    }

    @Test func answeredThroughTheMappingByRoleOrUserId() async throws {
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir)
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "user-b", "--auto-answer", "0.3", "--hangup-after", "0.5"],
            timeout: 60, environment: env)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        // The answer went out as the alternate shape's media-token request, the end as its hangup.
        #expect(r.stdout.contains("virtual phone answers: POST /api/v2/calls/"))
        #expect(r.stdout.contains("/media-token → 200 accepted"))
        #expect(r.stdout.contains("/hangup (remoteEnded) → 200 ended"))
        #expect(r.stdout.contains("APNs sandbox accepted invitation to phone"))
        #expect(r.stdout.contains("RINGCHECK_APNS_URL="), "the mock settings are announced")
        #expect(!r.stdout.contains("token-user-"), "bearer tokens are never printed")
        // Where the backend it started wrote its output is said, and the file is there afterwards.
        let log = r.stdout.split(separator: "\n").first { $0.hasPrefix("Backend output: ") }
            .map { String($0.dropFirst("Backend output: ".count)) }
        #expect(log.map { FileManager.default.fileExists(atPath: $0) } == true, "\(r.stdout)")
    }

    @Test func declinedThroughTheMappingExitsTenAsJSON() async throws {
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir)
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "b", "--auto-decline", "0.3", "--json"], timeout: 60,
            environment: env)
        #expect(r.status == 10, "\(r.stdout)\n\(r.stderr)")
        let lines = CallCommandTests.lines(r)
        #expect(!lines.isEmpty && lines.count == r.stdout.split(separator: "\n").count, "only NDJSON on stdout")
        #expect(lines.last?["kind"]?.stringValue == "summary")
        #expect(lines.last?["outcome"]?.stringValue == "declined")
    }

    @Test func aTwoUserFileIsEnoughForACall() async throws {
        // A backend with two test accounts: the call plays a and b only, so the file needs no c.
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir, without: ["c"])
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--to", "b", "--auto-answer", "0.3", "--hangup-after", "0.5"],
            timeout: 60, environment: env)
        // No --as: with a target file the caller is its user a.
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("/hangup (remoteEnded) → 200 ended"))
        // The suite still needs all three.
        let run = try await RingcheckBinary.run(["run", "--target", path], timeout: 60, environment: env)
        #expect(run.status == 2, "\(run.stdout)\n\(run.stderr)")
        #expect(
            run.stderr.contains("alternate.yaml:13:3: users: missing user 'c' (the suite's scenarios use a, b and c)"))
    }

    @Test func aMissingCallerOrCalleeIsAConfigurationErrorBeforeAnythingStarts() async throws {
        let dir = TemporaryDirectory()
        let (path, env) = try Self.alternateTarget(dir, without: ["b", "c"])
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "b"], timeout: 60, environment: env)
        #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
        #expect(
            r.stderr.contains(
                "alternate.yaml:13:3: users: missing user 'b' (the call's callee, --to): it is neither a user here (a) nor an account's userId"
            ), "\(r.stderr)")
        #expect(!r.stdout.contains("RINGCHECK_APNS_URL="), "no mocks were started for a call that cannot be placed")
        let unknown = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "nobody", "--to", "user-a"], timeout: 60, environment: env)
        #expect(unknown.status == 2, "\(unknown.stdout)\n\(unknown.stderr)")
        #expect(unknown.stderr.contains("users: missing user 'nobody' (the call's caller, --as)"), "\(unknown.stderr)")
    }

    /// Writes `slow.yaml` in `dir`: a target whose lifecycle runs `start` (a shell command) and waits up to
    /// `readyTimeout` for a ready URL nothing answers. Returns its path.
    static func neverReadyTarget(in dir: TemporaryDirectory, start: String, readyTimeout: String) throws -> String {
        let port = ClientTestPeer.closedPort()
        return try dir.write(
            "slow.yaml",
            """
            baseURL: http://127.0.0.1:\(port)
            users:
              a: {userId: user-a, auth: {bearer: token-user-a}}
              b: {userId: user-b, auth: {bearer: token-user-b}}
              c: {userId: user-c, auth: {bearer: token-user-c}}
            lifecycle:
              start: "\(start)"
              ready: {url: "http://127.0.0.1:\(port)/health", timeout: \(readyTimeout)}
            """)
    }

    @Test func ctrlCWhileTheBackendStartsStopsItAndExits() async throws {
        // A backend that never becomes ready: ringcheck waits for it; Ctrl-C must stop it, not leave it.
        let dir = TemporaryDirectory()
        let path = try Self.neverReadyTarget(
            in: dir, start: "echo $$ > \(dir.file("backend.pid")); exec sleep 60", readyTimeout: "50s")
        let pid = try MockStackProcess.spawn(
            [RingcheckBinary.path, "call", "--target", path, "--as", "a", "--to", "b"], stdout: dir.file("stdout"),
            stderr: dir.file("stderr"))
        // Killed (and reaped) only if the test ends before it was reaped: once reaped, its pid may belong to
        // another process (pids wrap at 32,768 here, and a test run starts thousands).
        var reaped = false
        defer { if !reaped { MockStackProcess.kill(pid) } }
        // The whole pid line: the file exists (the shell opened it) before the pid is written into it.
        let backend = ProcessIdentity(try #require(await WrittenFile.pid(dir.file("backend.pid"))))
        kill(pid, SIGINT)
        let status = await offPool { MockStackProcess.wait(pid, timeout: 30) }
        reaped = status != nil
        let stderr = (try? String(contentsOfFile: dir.file("stderr"), encoding: .utf8)) ?? ""
        #expect(status == 130, "\(stderr)")
        #expect(stderr.contains("interrupted (signal 2) while starting"))
        #expect(!backend.isRunning, "the backend ringcheck started is stopped")
    }
}

/// `call --target` on a backend in the node shape: the phone registers in the only APNs environment
/// the target supports, and the caller's own hang-up is the caller's though the backend's word differs.
@Suite struct CallTargetNodeShapeTests {
    @Test func aProductionOnlyTargetGetsAProductionPhoneAndTheHangUpIsTheCallers() async throws {
        let dir = TemporaryDirectory()
        var text = try String(
            contentsOfFile: TargetCommandTests.repositoryRoot + "/examples/targets/reference-node.yaml", encoding: .utf8
        )
        // No sandbox; and the backend's word for remoteEnded ("hangup") is not mapped back.
        text = text.replacingOccurrences(of: "capabilities: [faults, sandbox, ", with: "capabilities: [faults, ")
        text = text.replacingOccurrences(of: "    remoteEnded: hangup\n", with: "")
        #expect(!text.contains("sandbox") && !text.contains("remoteEnded: hangup"))
        let path = try dir.write("node.yaml", text)
        let r = try await RingcheckBinary.run(
            ["call", "--target", path, "--as", "a", "--to", "user-b", "--auto-answer", "0.3", "--hangup-after", "0.5"],
            timeout: 60, environment: CallCommandTests.plain)
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("APNs accepted invitation to phone"), "\(r.stdout)")
        #expect(!r.stdout.contains("APNs sandbox"))
        #expect(r.stdout.contains("ended: hangup by caller"), "\(r.stdout)")
    }
}
