import Foundation
import Synchronization

/// `ringcheck serve-reference` as a child process, for tests that kill and restart the backend.
public final class ReferenceServerProcess: @unchecked Sendable {  // `process` is touched by one test at a time
    public let process: Process
    /// `http://127.0.0.1:PORT`, read from the "listening on" line.
    public let baseURL: String
    private let output: LockedData

    /// Starts the binary with `arguments` (add `--port 0`) and `environment` added to this process's,
    /// and waits up to `timeout` seconds for it to say where it listens.
    public init(arguments: [String], environment: [String: String], timeout: Double = 20) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: RingcheckBinary.path)
        process.arguments = ["serve-reference"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = LockedData()
        self.output = output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if !chunk.isEmpty { output.append(chunk) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var url: String?
        while url == nil && Date() < deadline && process.isRunning {
            let text = String(decoding: output.get(), as: UTF8.self)
            if let range = text.range(of: "listening on ") {
                let rest = text[range.upperBound...]
                url = rest.prefix { !$0.isWhitespace }.description
                if url?.isEmpty == true { url = nil }
            }
            if url == nil { usleep(20_000) }
        }
        guard let url else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ReferenceServerProcessError(output: String(decoding: output.get(), as: UTF8.self))
        }
        baseURL = url
    }

    /// Everything the process printed so far.
    public var log: String { String(decoding: output.get(), as: UTF8.self) }

    /// Starts the server on its own thread (it waits for the child), keeping the cooperative pool free.
    public static func start(arguments: [String], environment: [String: String], timeout: Double = 20) async throws
        -> ReferenceServerProcess
    {
        try await offPool {
            try ReferenceServerProcess(arguments: arguments, environment: environment, timeout: timeout)
        }
    }

    /// `kill -9`: no cleanup, no goodbye.
    public func killHard() async {
        kill(process.processIdentifier, SIGKILL)
        let process = self.process
        await offPool { process.waitUntilExit() }
    }

    /// SIGINT, as Ctrl-C; returns the exit status.
    @discardableResult
    public func interrupt() async -> Int32 {
        kill(process.processIdentifier, SIGINT)
        let process = self.process
        return await offPool {
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// The server did not start; carries what it printed.
public struct ReferenceServerProcessError: Error, CustomStringConvertible {
    public var output: String
    public var description: String { "serve-reference did not start:\n\(output)" }
}

/// What a child process printed so far, appended by a reader thread and read by tests.
final class LockedData: Sendable {
    private let data = Mutex(Data())
    func append(_ more: Data) { data.withLock { $0.append(more) } }
    func get() -> Data { data.withLock { $0 } }
}
