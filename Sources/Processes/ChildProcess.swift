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
/// also ends whatever it started. The group dies with this process, however it ends (`ChildGuardian`).
///
/// Reap a child one way only: `poll`/`wait(timeout:)`/`kill`, or an `ExitWatcher`.
public struct ChildProcess: Sendable {
    public let pid: pid_t

    /// Starts `arguments[0]` (looked up on PATH) with the rest as arguments, reading `stdin` and writing
    /// `stdout` and `stderr` (descriptors the caller keeps and closes). `environment` is added to this
    /// process's own; `workingDirectory` is where the child starts (this process's when nil).
    public init(
        _ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32, environment: [String: String]? = nil,
        workingDirectory: String? = nil
    ) throws {
        guard let program = arguments.first, !program.isEmpty else {
            throw ChildProcessError(program: "", code: EINVAL, message: "no program to run")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let workingDirectory {
            guard Self.addChdir(&actions, workingDirectory) else {
                throw ChildProcessError(
                    program: program, code: ENOSYS, message: "this C library cannot start a child in another directory")
            }
        }
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
        var env =
            (environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } }
                ?? ProcessInfo.processInfo.environment)
        // The guardian's tag, replacing one this process inherited from a ringcheck that started it.
        if let tag = ChildGuardian.prepare() { env[tag.name] = tag.value }
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, program, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw ChildProcessError(program: program, code: rc, message: String(cString: strerror(rc)))
        }
        pid = child
        ChildGuardian.watch(child)
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

    /// Makes the child start in `directory` (glibc's `addchdir_np`, looked up at run time as Swift does
    /// not import it); false when the C library lacks it.
    private static func addChdir(_ actions: inout posix_spawn_file_actions_t, _ directory: String) -> Bool {
        typealias AddChdir =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
            -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return false }
        return directory.withCString { unsafeBitCast(symbol, to: AddChdir.self)(&actions, $0) } == 0
    }

    /// The exit status once the child has ended (the signal number if a signal ended it), without waiting.
    public func poll() -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                ChildGuardian.forgetIfGone(pid)
                return ExitStatus(waitStatus: status).code
            }
            if r == 0 { return nil }
            if errno != EINTR { return -1 }  // already reaped
        }
    }

    /// Waits up to `timeout` seconds for the child to end and returns its status; nil if it is still running.
    ///
    /// It polls on the calling thread: call it from a thread of its own (as `CommandRunner` does), never from
    /// async code, where two such waits hold both pool threads of a 2-core machine until their children end.
    /// Async code awaits an exit through `ExitWatcher`.
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var pause: UInt32 = 200
        while true {
            if let status = poll() { return status }
            if Date() >= deadline { return nil }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
    }

    /// Sends `signal` to the child's whole process group (the child and whatever it started); false when
    /// the group is gone.
    @discardableResult
    public func signalGroup(_ signal: Int32) -> Bool {
        Glibc.kill(-pid, signal) == 0
    }

    /// Kills the child and everything in its process group (SIGKILL), and reaps it.
    public func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        ChildGuardian.forgetIfGone(pid)
    }
}

/// How a child ended.
public struct ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The exit status, or nil when a signal ended it.
    public var exitCode: Int32?
    /// The signal that ended it, if any.
    public var signal: Int32?

    public init(exitCode: Int32? = nil, signal: Int32? = nil) {
        self.exitCode = exitCode
        self.signal = signal
    }

    /// Decodes a `waitpid` status.
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 { self.init(exitCode: (status >> 8) & 0xff) } else { self.init(signal: signal) }
    }

    /// The exit status, or the signal number when a signal ended the child (what `poll` returns).
    public var code: Int32 { exitCode ?? signal ?? -1 }

    public var description: String {
        if let exitCode { return "exited with status \(exitCode)" }
        return "was killed by signal \(signal ?? 0)\(signal.map { Self.signalName($0) } ?? "")"
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGKILL: return " (SIGKILL)"
        case SIGTERM: return " (SIGTERM)"
        case SIGINT: return " (SIGINT)"
        case SIGSEGV: return " (SIGSEGV)"
        case SIGABRT: return " (SIGABRT)"
        default: return ""
        }
    }
}

/// A child could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public var program: String
    public var code: Int32
    public var message: String

    public var description: String { "cannot start \(program): \(message)" }
}
