import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A long-running helper (such as `openssl s_server`) started with a clean slate: no inherited file
/// descriptors beyond /dev/null on stdio, default signal handling, an empty signal mask. Foundation's
/// `Process` detects a child's exit by a socket every descendant inherits, and the test process blocks
/// SIGTERM in its children, so a backgrounded server started through `ProcessRunner` can hang the runner.
public final class SigningServerProcess: @unchecked Sendable {  // pid is immutable; stop() is idempotent via waitpid
    public let pid: pid_t

    /// Starts `arguments[0]` (looked up on PATH) with the rest as arguments; file arguments must be absolute.
    public init(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // Close everything else the test process has open (other children's exit-detection sockets included).
        for fd in Int32(3)..<1024 { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
        guard rc == 0 else {
            throw NSError(
                domain: "SigningServerProcess", code: Int(rc),
                userInfo: [NSLocalizedDescriptionKey: "posix_spawnp \(arguments[0]): \(String(cString: strerror(rc)))"])
        }
        pid = child
    }

    /// True while the process has not exited.
    public var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Kills the process (SIGKILL) and reaps it.
    public func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    deinit { stop() }
}
