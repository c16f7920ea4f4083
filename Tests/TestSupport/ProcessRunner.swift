import Foundation

/// The outcome of running an external program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]
}

/// Runs independent peers (curl, nghttp, openssl, python3) from tests.
///
/// Output goes to files, not pipes, and nothing runs on Dispatch's global queue: a pipe reader
/// blocked there for a whole run starves the thread pool that Swift tasks share on Linux (so the
/// server under test stalls), and a background grandchild holding a pipe open would keep the
/// read from ever finishing.
public enum ProcessRunner {
    /// Runs `executable` (looked up on PATH) with `arguments`, feeding `input` on stdin, and waits for it
    /// on the calling thread. A program still running after `timeout` seconds is killed (status -9).
    /// From async code use `runProcess`, which waits on a thread of its own.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil, timeout: Double = 30,
        environment: [String: String]? = nil
    ) throws -> ProcessResult {
        let dir = TemporaryDirectory(prefix: "ringcheck-proc")
        let outPath = dir.file("stdout")
        let errPath = dir.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        guard let outHandle = FileHandle(forWritingAtPath: outPath),
            let errHandle = FileHandle(forWritingAtPath: errPath)
        else { throw CocoaError(.fileWriteUnknown) }
        process.standardOutput = outHandle
        process.standardError = errHandle
        let inPipe = Pipe()
        process.standardInput = inPipe
        try process.run()
        let writer = inPipe.fileHandleForWriting
        if let input {
            // A large input could fill the pipe before the child reads it: write from a thread of its own.
            Thread {
                writer.write(Data(input))
                try? writer.close()
            }.start()
        } else {
            try? writer.close()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        var killed = false
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        process.waitUntilExit()
        try? outHandle.close()
        try? errHandle.close()
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        let err = FileManager.default.contents(atPath: errPath) ?? Data()
        return ProcessResult(
            status: killed ? -9 : process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
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
    let result: Result<T, E> = await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: Result { () throws(E) -> T in try body() }) }.start()
    }
    return try result.get()
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
