import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// Makes the children ringcheck starts die with it, however it ends (`kill -9` included).
///
/// A process of its own, forked once on first use (`rc_guardian_start`), holds the other end of a socket
/// and the list of the process groups ringcheck started (each child is the leader of its own group,
/// `ChildProcess`). When ringcheck exits its end closes and the guardian sends SIGTERM to every group still
/// listed, SIGKILL after the grace period. A group, not a pid: a backend's start command that launched a
/// server in the background is stopped with it.
///
/// Not `PR_SET_PDEATHSIG`: it reaches only the direct child (not what a shell started), is cleared across
/// a fork, and fires when the *thread* that forked ends, which the threads spawning children here do.
enum ChildGuardian {
    /// The grace period between SIGTERM and SIGKILL.
    static let graceMilliseconds: Int32 = 5_000

    /// Ringcheck's end of the guardian's socket (-1 when the guardian could not be started: children then
    /// only die with ringcheck when it exits in an orderly way), and the tag the guardian knows its
    /// children by (empty when none could be made).
    private static let started: (socket: Int32, tag: String) = {
        var tag = [CChar](repeating: 0, count: 64)
        let socket = rc_guardian_start(graceMilliseconds, &tag, tag.count)
        return (
            socket,
            socket >= 0 ? String(decoding: tag.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        )
    }()
    private static var socket: Int32 { started.socket }

    /// The environment variable every child gets (`RINGCHECK_GUARD=<tag>`, inherited by what it starts in
    /// turn): the guardian stops each process carrying it too, so a child spawned but not yet listed by `watch`
    /// when ringcheck was killed (with its start command's background server) does not outlive it either.
    static let tagVariable = "RINGCHECK_GUARD"

    /// Starts the guardian if it is not running yet: called before a child is spawned, so that its tag is
    /// in the child's environment (starting the guardian later, a fork of this whole process, also took long
    /// enough for a test's kill to land in it). The variable to give the child; nil without a guardian.
    static func prepare() -> (name: String, value: String)? {
        started.tag.isEmpty ? nil : (tagVariable, started.tag)
    }

    /// Lists the group `pid` leads (the leader started at `rc_process_start_time(pid)`).
    static func watch(_ pid: pid_t) {
        send(pid, startTime: rc_process_start_time(pid))
    }

    /// Forgets the group `pid` led, when nothing of it runs any more: a process-group ID can name another
    /// group once every member is gone.
    static func forgetIfGone(_ pid: pid_t) {
        if Glibc.kill(-pid, 0) != 0 { send(-pid, startTime: 0) }
    }

    private static func send(_ value: pid_t, startTime: UInt64) {
        guard socket >= 0 else { return }
        var record = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: Int32(value)) { record.replaceSubrange(0..<4, with: $0) }
        withUnsafeBytes(of: startTime) { record.replaceSubrange(8..<16, with: $0) }
        _ = record.withUnsafeBytes { rc_send_nosignal(socket, $0.baseAddress, 16) }
    }
}
