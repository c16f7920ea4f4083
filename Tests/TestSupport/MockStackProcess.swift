import Foundation
import Processes

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the independent clients (and `ringcheck mocks`) without pipes or Foundation's `Process`.
///
/// Many clients run at once while the mocks serve them from the same test process. `ProcessRunner`
/// reads its pipes with blocking calls on Dispatch's global queues, whose threads the Swift
/// cooperative pool shares on Linux: twenty parallel curls then starve the mocks' handlers for seconds.
/// Here a child's output goes to files, its exit is awaited with `waitpid` on a thread of its own, and
/// it starts with a clean slate (no inherited descriptors, default signal handling, empty mask).
public enum MockStackProcess {
    /// Starts `arguments[0]` (looked up on PATH) with stdin from /dev/null and stdout/stderr to files;
    /// `environment` is added to this process's.
    public static func spawn(
        _ arguments: [String], stdout: String, stderr: String, environment: [String: String]? = nil
    ) throws -> pid_t {
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let output = open(stdout, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let errors = open(stderr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { for fd in [input, output, errors] where fd >= 0 { close(fd) } }
        guard input >= 0, output >= 0, errors >= 0 else {
            throw MockStackClientError(
                message: "cannot open output files for \(arguments[0]): \(String(cString: strerror(errno)))")
        }
        return try ChildProcess(arguments, stdin: input, stdout: output, stderr: errors, environment: environment).pid
    }

    /// Waits for `pid` to exit, up to `timeout` seconds, polling (never on the cooperative pool when
    /// called through `run`). Returns the exit status, `-signal` when killed by a signal, nil on timeout.
    public static func wait(_ pid: pid_t, timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let rc = waitpid(pid, &status, WNOHANG)
            if rc == pid { return decode(status) }
            if rc < 0 && errno != EINTR { return nil }
            if Date() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Kills `pid` with SIGKILL and reaps it.
    public static func kill(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// `waitpid` status as an exit code, or minus the signal that ended the process.
    static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : -signal
    }

    /// Runs a program to completion on a thread of its own, its output collected through files in
    /// `scratch`. A program still running after `timeout` seconds is killed and reported as status -9.
    public static func run(_ arguments: [String], scratch: TemporaryDirectory, timeout: Double) async throws
        -> ProcessResult
    {
        let id = UUID().uuidString
        let out = scratch.file("process-\(id).out")
        let err = scratch.file("process-\(id).err")
        let pid = try spawn(arguments, stdout: out, stderr: err)
        let status: Int32 = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                if let status = wait(pid, timeout: timeout) {
                    continuation.resume(returning: status)
                } else {
                    kill(pid)
                    continuation.resume(returning: -9)
                }
            }
        }
        let stdout = (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()
        let stderr = (try? Data(contentsOf: URL(fileURLWithPath: err))) ?? Data()
        return ProcessResult(
            status: status, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self), stdoutBytes: [UInt8](stdout))
    }
}
