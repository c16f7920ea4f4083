import Foundation
import Processes
import TestSupport
import Testing

/// `ProcessIdentity`, which tests use to check that a process they started is gone: it must tell a
/// running process from one that ended, and from a newer process that was given the same pid.
@Suite struct ProcessIdentityTests {
    @Test func aRunningProcessIsRunningUntilItIsKilled() throws {
        let pid = try MockStackProcess.spawn(["/bin/sleep", "30"], stdout: "/dev/null", stderr: "/dev/null")
        var reaped = false
        defer { if !reaped { MockStackProcess.kill(pid) } }
        let identity = ProcessIdentity(pid)
        #expect(identity.isRunning)
        MockStackProcess.kill(pid)
        reaped = true
        #expect(!identity.isRunning)
    }

    @Test func anotherStartTimeIsAnotherProcess() throws {
        let pid = try MockStackProcess.spawn(["/bin/sleep", "30"], stdout: "/dev/null", stderr: "/dev/null")
        defer { MockStackProcess.kill(pid) }
        // What a check holding an identity from before a pid was reused sees.
        #expect(!ProcessIdentity(pid, startTime: "1").isRunning)
    }

    @Test func aZombieIsNotRunning() async throws {
        let pid = try MockStackProcess.spawn(["/bin/sh", "-c", "exit 0"], stdout: "/dev/null", stderr: "/dev/null")
        defer { MockStackProcess.kill(pid) }
        let identity = ProcessIdentity(pid)
        // Not reaped until the defer: once it has exited it stays a zombie.
        let deadline = ContinuousClock.now + .seconds(60)
        while identity.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!identity.isRunning)
        #expect(FileManager.default.fileExists(atPath: "/proc/\(pid)/stat"), "still a zombie, not reaped")
    }
}
