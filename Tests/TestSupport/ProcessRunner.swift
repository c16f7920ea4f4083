import Foundation

/// The outcome of running an external program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]
}

/// Runs independent peers (curl, nghttp, openssl, python3) from tests.
public enum ProcessRunner {
    /// Runs `executable` (looked up on PATH) with `arguments`, feeding `input` on stdin, and waits for it.
    /// A program still running after `timeout` seconds is killed and reported with status -9.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil, timeout: Double = 30,
        environment: [String: String]? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe()
        let err = Pipe()
        let inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        if let input { inp.fileHandleForWriting.write(Data(input)) }
        try? inp.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let outData = LockedData()
        let errData = LockedData()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        var killed = false
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        process.waitUntilExit()
        group.wait()
        let o = outData.get()
        return ProcessResult(
            status: killed ? -9 : process.terminationStatus,
            stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self),
            stdoutBytes: [UInt8](o))
    }

    /// True when `executable` is on PATH.
    public static func available(_ executable: String) -> Bool {
        (try? run("sh", ["-c", "command -v \(executable)"]).status) == 0
    }
}

/// Data written by one thread and read by another after a DispatchGroup wait.
final class LockedData: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.withLock { data = d } }
    func get() -> Data { lock.withLock { data } }
}
