import Foundation
import Processes

/// An independent server (nghttpd, a python script) running in the background for a client test,
/// killed when stopped or released.
public final class ClientTestPeer: @unchecked Sendable {  // immutable after init but `isStopped`, guarded by `lock`
    public let port: Int
    public let baseURL: String
    private let child: ChildProcess
    private let outputDirectory: TemporaryDirectory
    private let outputPath: String
    private let lock = NSLock()
    private var isStopped = false

    /// Starts `executable` with `arguments`. With `port` nil the program must print `PORT <n>` on a line
    /// of its stdout; otherwise it must listen on `port`. Returns once the port accepts connections, which
    /// takes a while: from async tests use `start`, which waits off the cooperative pool.
    public init(_ executable: String, _ arguments: [String], port: Int?, scheme: String, timeout: Double = 10) throws {
        outputDirectory = TemporaryDirectory(prefix: "ringcheck-peer")
        outputPath = outputDirectory.file("output")
        // Output goes to a file the test reads, not a pipe someone must drain.
        let out = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            if out >= 0 { close(out) }
            if null >= 0 { close(null) }
        }
        guard out >= 0, null >= 0 else { throw ClientPeerError(message: "cannot open \(outputPath)") }
        child = try ChildProcess([executable] + arguments, stdin: null, stdout: out, stderr: out)
        let deadline = Date().addingTimeInterval(timeout)
        var found = port
        var exited = false
        while found == nil && Date() < deadline && !exited {
            found = Self.read(outputPath).split(separator: "\n").first { $0.hasPrefix("PORT ") }.flatMap {
                Int($0.dropFirst(5))
            }
            if found == nil {
                exited = child.poll() != nil
                usleep(10_000)
            }
        }
        guard let found, ClientTestPeer.waitUntilListening(port: found, deadline: deadline) else {
            let text = Self.read(outputPath)
            child.kill()
            throw ClientPeerError(message: "\(executable) did not start listening: \(text)")
        }
        self.port = found
        baseURL = "\(scheme)://127.0.0.1:\(found)"
    }

    /// `init` off the cooperative pool: starting the program and polling its port takes a while (python
    /// alone needs a few hundred milliseconds on a loaded machine). Use it from async tests.
    public static func start(
        _ executable: String, _ arguments: [String], port: Int?, scheme: String, timeout: Double = 10
    ) async throws -> ClientTestPeer {
        try await offPool { try ClientTestPeer(executable, arguments, port: port, scheme: scheme, timeout: timeout) }
    }

    deinit { stop() }

    /// Everything the program printed so far.
    public var log: String { Self.read(outputPath) }

    /// Kills the program (and anything it started) and reaps it: quick, as SIGKILL cannot be refused.
    public func stop() {
        let first = lock.withLock {
            defer { isStopped = true }
            return !isStopped
        }
        if first { child.kill() }
    }

    private static func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound, read, and released).
    public static func freePort() -> Int { LoopbackPort.free() ?? 0 }

    /// A port on 127.0.0.1 where nothing listens: connecting is refused. One port, held for the whole test
    /// run (`HeldLoopbackPort`, bound and never listening): no other test is handed it, so nothing starts
    /// answering there while a test expects a refusal (a freed port could be taken again meanwhile).
    public static func closedPort() -> Int { closed?.port ?? freePort() }

    private static let closed = try? HeldLoopbackPort()

    static func waitUntilListening(port: Int, deadline: Date) -> Bool {
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let rc = withLoopbackAddress(port) { connect(fd, $0, $1) }
            close(fd)
            if rc == 0 { return true }
            usleep(20_000)
        }
        return false
    }
}

/// Why a test peer could not be started.
public struct ClientPeerError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
