import Foundation
import HTTP
import Processes

#if canImport(Glibc)
    import Glibc
#endif

/// The outcome of running an external program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]
}

/// Runs independent peers (curl, nghttp, openssl, python3) from tests.
///
/// Output goes to files, not pipes, and the wait is a `waitpid` poll rather than Foundation's `Process`
/// (see `ChildProcess`): a pipe reader or a waiting thread on Dispatch's global queue for a whole run
/// starves the thread pool that Swift tasks share on Linux (so the server under test stalls), and a
/// background grandchild holding a pipe open would keep the read from ever finishing.
public enum ProcessRunner {
    /// Runs `executable` (looked up on PATH) with `arguments`, feeding `input` on stdin, and waits for it
    /// on the calling thread. A program still running after `timeout` seconds is killed (status -9), with
    /// anything it started. From async code use `runProcess`, which waits on a thread of its own.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil, timeout: Double = 30,
        environment: [String: String]? = nil
    ) throws -> ProcessResult {
        let dir = TemporaryDirectory(prefix: "ringcheck-proc")
        let outPath = dir.file("stdout")
        let errPath = dir.file("stderr")
        let outFD = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        var inFDs: [Int32] = [-1, -1]
        let piped = pipe(&inFDs) == 0
        if piped { inFDs.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) } }
        defer {
            for fd in [outFD, errFD] where fd >= 0 { close(fd) }
        }
        guard outFD >= 0, errFD >= 0, piped else {
            if piped { inFDs.forEach { close($0) } }
            throw CocoaError(.fileWriteUnknown)
        }
        let child: ChildProcess
        do {
            // Through env as before: a missing program is exit status 127 with a message, not a throw.
            child = try ChildProcess(
                ["/usr/bin/env", executable] + arguments, stdin: inFDs[0], stdout: outFD, stderr: errFD,
                environment: environment)
        } catch {
            inFDs.forEach { close($0) }
            throw error
        }
        close(inFDs[0])
        writeAndClose(inFDs[1], input ?? [])
        var status = child.wait(timeout: timeout)
        if status == nil {
            child.kill()
            status = -9
        }
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return ProcessResult(
            status: status ?? -9, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutBytes: [UInt8](out))
    }

    /// True when `executable` is on PATH.
    public static func available(_ executable: String) -> Bool {
        (try? run("sh", ["-c", "command -v \(executable)"]).status) == 0
    }
}

/// Runs blocking work (external processes, raw sockets) on a fresh thread, never on the
/// cooperative pool, so handlers under test keep running while a test waits.
public func offPool<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    try await onThreadOfItsOwn(body)
}

/// Runs an external program to completion on a thread of its own (see `ProcessRunner.run`).
public func runProcess(
    _ executable: String, _ arguments: [String], input: [UInt8]? = nil, timeout: Double = 20,
    environment: [String: String]? = nil
) async throws -> ProcessResult {
    try await offPool {
        try ProcessRunner.run(executable, arguments, input: input, timeout: timeout, environment: environment)
    }
}

/// `ProcessRunner.available(_:)`, checked on a thread of its own.
public func processAvailable(_ executable: String) async -> Bool {
    await offPool { ProcessRunner.available(executable) }
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
