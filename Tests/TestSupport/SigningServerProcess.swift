import Foundation
import Processes

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
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        pid = try ChildProcess(arguments, stdin: null, stdout: null, stderr: null).pid
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
