import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a command from a target file did not give what was asked.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Runs a target file's short commands (token commands) to completion with a time limit.
///
/// The child is spawned with `posix_spawn` (not Foundation's `Process`, whose exit detection can be
/// confused by descriptors other threads hand to their children), gets only stdin (/dev/null), stdout
/// and stderr (files), runs in a process group of its own, and is killed with that group when it
/// overstays. The wait happens on a thread of its own, never on the cooperative pool.
public enum CommandRunner {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `argv` and returns its output; throws when it cannot start or outlasts `timeout` seconds.
    public static func run(_ argv: [String], timeout: Double) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runBlocking(argv, timeout: timeout) }) }.start()
        }
    }

    static func runBlocking(_ argv: [String], timeout: Double) throws -> Output {
        let dir = NSTemporaryDirectory() + "ringcheck-cmd-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outFD = open(dir + "/out", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errFD = open(dir + "/err", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let inFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { for fd in [outFD, errFD, inFD] where fd >= 0 { close(fd) } }
        guard outFD >= 0, errFD >= 0, inFD >= 0 else { throw CommandError(message: "cannot open output files") }
        let pid = try spawn(argv, stdin: inFD, stdout: outFD, stderr: errFD)
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var pause: UInt32 = 500
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { break }
            if Date() >= deadline {
                _ = kill(-pid, SIGKILL)
                _ = kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw CommandError(message: "'\(argv.last ?? "")' did not finish within \(timeout) s")
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        func read(_ name: String) -> String {
            String(decoding: FileManager.default.contents(atPath: dir + "/" + name) ?? Data(), as: UTF8.self)
        }
        return Output(status: code, stdout: read("out"), stderr: read("err"))
    }

    private static func spawn(_ argv: [String], stdin: Int32, stdout: Int32, stderr: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let cEnv: [UnsafeMutablePointer<CChar>?] =
            ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        guard rc == 0 else {
            throw CommandError(message: "cannot start '\(argv[0])': \(String(cString: strerror(rc)))")
        }
        return pid
    }
}
