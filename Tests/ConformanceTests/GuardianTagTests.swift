import CLinux
import Foundation
import Processes
import TestSupport
import Testing

/// The guardian also stops what carries its tag (`RINGCHECK_GUARD`, `ChildGuardian.tagVariable`): a child spawned
/// but not yet listed when ringcheck was killed (the moment between the spawn and its record) dies with ringcheck
/// too, and a nested ringcheck's guardian, which carries the tag as well, lives on to stop that ringcheck's
/// own children. Each test starts a guardian of its own and plays ringcheck's death by closing its socket.
@Suite struct GuardianTagTests {
    /// A guardian of the test's own (grace 500 ms): its socket and its tag.
    static func guardian() throws -> (socket: Int32, tag: String) {
        var tag = [CChar](repeating: 0, count: 64)
        let socket = rc_guardian_start(500, &tag, tag.count)
        try #require(socket >= 0)
        let text = String(decoding: tag.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try #require(text.count == 32)
        return (socket, text)
    }

    /// `program 600` run with the tag in its environment; the guardian is never told of it.
    static func tagged(_ tag: String, program: String) throws -> ExitWatcher {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        return ExitWatcher(
            try ChildProcess(
                ["/bin/sh", "-c", "RINGCHECK_GUARD=\(tag) exec \(program) 600"], stdin: null, stdout: null,
                stderr: null))
    }

    /// Waits until `pid` runs with the tag in its environment (the shell has run `exec`).
    static func carries(_ pid: pid_t, _ tag: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                environ.split(separator: 0).contains(where: { $0.elementsEqual("RINGCHECK_GUARD=\(tag)".utf8) })
            {
                return true
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func aChildNeverListedButCarryingTheTagDiesWithRingcheck() async throws {
        let (socket, tag) = try Self.guardian()
        let child = try Self.tagged(tag, program: "sleep")
        defer { child.child.kill() }
        #expect(await Self.carries(child.child.pid, tag))
        close(socket)
        let status = await child.exited(within: .seconds(60))
        #expect(status?.signal == SIGTERM, "the guardian stopped the tagged child: \(String(describing: status))")
    }

    @Test func aNestedGuardianCarryingTheTagLivesOn() async throws {
        let dir = TemporaryDirectory(prefix: "ringcheck-guard-tag")
        // A process named as guardians are (`ps -o comm`): a symbolic link to sleep named ringcheck-guard.
        let named = dir.file("ringcheck-guard")
        try FileManager.default.createSymbolicLink(atPath: named, withDestinationPath: "/bin/sleep")
        let (socket, tag) = try Self.guardian()
        // Started first, so it has the lower pid and the guardian's one pass over /proc reaches it first.
        let nested = try Self.tagged(tag, program: named)
        defer { nested.child.kill() }
        let plain = try Self.tagged(tag, program: "sleep")
        defer { plain.child.kill() }
        #expect(await Self.carries(nested.child.pid, tag))
        #expect(await Self.carries(plain.child.pid, tag))
        close(socket)
        #expect(await plain.exited(within: .seconds(60))?.signal == SIGTERM)
        // The plain one died of the pass that went past the nested one; give a signal sent to it time to land.
        try await Task.sleep(for: .seconds(3))
        #expect(nested.status == nil, "a guardian-named process carrying the tag was stopped")
    }
}
