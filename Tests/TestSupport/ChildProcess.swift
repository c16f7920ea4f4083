import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process spawned with a clean slate and reaped with `waitpid`, without Foundation's `Process`.
///
/// Foundation's `Process` learns that a child exited when a socket it hands the child is closed, and
/// it closes other descriptors only from a list made just before spawning: a child spawned at the same
/// moment on another thread can inherit that socket (or a pipe), and then `waitUntilExit` and `isRunning`
/// wait for the wrong process. In a test run that starts hundreds of children in parallel that happened
/// (a 20 s wait for a process long gone, `waitUntilExit` spinning on both threads of the cooperative
/// pool). Here the child gets only stdin, stdout and stderr (every other descriptor is closed at spawn
/// time), default signal handling with nothing blocked, and a process group of its own, so a kill
/// also ends whatever it started.
struct ChildProcess: Sendable {
    let pid: pid_t

    /// Starts `arguments[0]` (looked up on PATH) with the rest as arguments, reading `stdin` and writing
    /// `stdout` and `stderr` (descriptors the caller keeps and closes).
    init(_ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32, environment: [String: String]? = nil)
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        Self.closeFrom3(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env =
            (environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } }
                ?? ProcessInfo.processInfo.environment)
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw NSError(
                domain: "ChildProcess", code: Int(rc),
                userInfo: [NSLocalizedDescriptionKey: "posix_spawnp \(arguments[0]): \(String(cString: strerror(rc)))"])
        }
        pid = child
    }

    /// Closes every descriptor from 3 up in the child at spawn time (glibc's `addclosefrom_np`, looked up
    /// at run time as Swift does not import it); a list of descriptors to close would miss those another
    /// thread opens meanwhile.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        } else {
            for fd in Int32(3)..<Int32(min(sysconf(Int32(_SC_OPEN_MAX)), 4096)) {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
        }
    }

    /// The exit status once the child has ended (the signal number if a signal ended it), without waiting.
    func poll() -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return Self.decode(status) }
            if r == 0 { return nil }
            if errno != EINTR { return -1 }  // already reaped
        }
    }

    /// Waits up to `timeout` seconds for the child to end and returns its status; nil if it is still running.
    func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: UInt32 = 200
        while true {
            if let status = poll() { return status }
            if Date() >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    /// Kills the child and everything in its process group (SIGKILL), and reaps it.
    func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}

/// Writes `bytes` to `fd` on a thread of its own (a large input would fill the pipe before the child reads
/// it), then closes `fd`. A child that exits without reading costs an EPIPE, not a SIGPIPE.
func writeAndClose(_ fd: Int32, _ bytes: [UInt8]) {
    let thread = Thread {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, nil)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            off += n
        }
        close(fd)
    }
    thread.start()
}
