import Foundation
import Processes
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck serve-reference` as a child process, for tests that kill and restart the backend.
///
/// Started as a `ChildProcess`, not Foundation's `Process`: in a loaded run with hundreds of children and
/// over a thousand descriptors open, `Process.run` crashed the whole test process (a bad pointer in its
/// memcpy). What the server prints goes to a file, read back for its address and by `log`.
public final class ReferenceServerProcess: Sendable {
    private let child: ChildProcess
    /// The exit status once reaped (`ChildProcess.poll` reaps once).
    private let exitStatus: Mutex<Int32?>
    private let directory: TemporaryDirectory
    /// `http://127.0.0.1:PORT`, read from the "listening on" line.
    public let baseURL: String

    /// Starts the binary (`executable`: `ringcheck`, or another built beside the tests) with `arguments` (add
    /// `--port 0`) and `environment` added to this process's, and waits up to `timeout` seconds for it to say
    /// where it listens.
    public init(
        arguments: [String], environment: [String: String], timeout: Double = 20,
        executable: String = RingcheckBinary.path
    ) throws {
        directory = TemporaryDirectory(prefix: "ringcheck-serve-reference")
        let output = directory.file("output")
        let out = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            for fd in [out, null] where fd >= 0 { close(fd) }
        }
        guard out >= 0, null >= 0 else { throw CocoaError(.fileWriteUnknown) }
        child = try ChildProcess(
            [executable, "serve-reference"] + arguments, stdin: null, stdout: out, stderr: out,
            environment: environment)
        let deadline = Date().addingTimeInterval(timeout)
        var url: String?
        var status: Int32?
        while url == nil && Date() < deadline {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on ") {
                let found = text[range.upperBound...].prefix { !$0.isWhitespace }
                if !found.isEmpty, text[range.upperBound...].contains("\n") { url = String(found) }
            }
            if url == nil {
                status = child.poll()
                if status != nil { break }
                usleep(20_000)
            }
        }
        exitStatus = Mutex(status)
        guard let url else {
            child.kill()
            throw ReferenceServerProcessError(output: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        }
        baseURL = url
    }

    /// Everything the process printed so far.
    public var log: String { (try? String(contentsOfFile: directory.file("output"), encoding: .utf8)) ?? "" }

    /// Starts the server on its own thread (it waits for the child), keeping the cooperative pool free.
    public static func start(
        arguments: [String], environment: [String: String], timeout: Double = 20,
        executable: String = RingcheckBinary.path
    ) async throws -> ReferenceServerProcess {
        try await offPool {
            try ReferenceServerProcess(
                arguments: arguments, environment: environment, timeout: timeout, executable: executable)
        }
    }

    /// `kill -9`: no cleanup, no goodbye.
    public func killHard() async {
        kill(child.pid, SIGKILL)
        _ = await waitForExit()
    }

    /// SIGINT, as Ctrl-C; returns the exit status.
    @discardableResult
    public func interrupt() async -> Int32 {
        kill(child.pid, SIGINT)
        return await waitForExit()
    }

    /// SIGTERM, as a supervisor's stop; returns the exit status.
    @discardableResult
    public func terminate() async -> Int32 {
        kill(child.pid, SIGTERM)
        return await waitForExit()
    }

    /// The exit status, waited for on a thread of its own (-9 if it is still running after a minute).
    private func waitForExit() async -> Int32 {
        await offPool { [self] in
            exitStatus.withLock { status in
                if status == nil { status = child.wait(timeout: 60) }
                if status == nil {
                    child.kill()
                    status = -9
                }
                return status!
            }
        }
    }

    deinit {
        let reaped = exitStatus.withLock { $0 != nil || child.poll() != nil }
        if !reaped { child.kill() }
    }
}

/// The server did not start; carries what it printed.
public struct ReferenceServerProcessError: Error, CustomStringConvertible {
    public var output: String
    public var description: String { "serve-reference did not start:\n\(output)" }
}
