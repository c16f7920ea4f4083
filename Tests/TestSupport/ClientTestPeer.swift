import Foundation

/// An independent server (nghttpd, a python script) running in the background for a client test,
/// killed when stopped or released.
public final class ClientTestPeer: @unchecked Sendable {  // `process` is only read after init; output is locked
    public let port: Int
    public let baseURL: String
    private let process: Process
    private let output = ClientPeerOutput()

    /// Starts `executable` with `arguments`. With `port` nil the program must print `PORT <n>` on a line
    /// of its stdout; otherwise it must listen on `port`. Returns once the port accepts connections.
    public init(_ executable: String, _ arguments: [String], port: Int?, scheme: String, timeout: Double = 10) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        let sink = output
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { sink.append(data) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var found = port
        while found == nil && Date() < deadline && process.isRunning {
            found = sink.text.split(separator: "\n").first { $0.hasPrefix("PORT ") }.flatMap { Int($0.dropFirst(5)) }
            if found == nil { usleep(10_000) }
        }
        guard let found, ClientTestPeer.waitUntilListening(port: found, deadline: deadline) else {
            kill(process.processIdentifier, SIGKILL)
            throw ClientPeerError(message: "\(executable) did not start listening: \(sink.text)")
        }
        self.port = found
        baseURL = "\(scheme)://127.0.0.1:\(found)"
    }

    deinit { stop() }

    /// Everything the program printed so far.
    public var log: String { output.text }

    /// Kills the program and waits for it.
    public func stop() {
        if process.isRunning {
            // SIGKILL, not terminate(): children of the test runner start with SIGTERM blocked.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound, read, and released).
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// A port on 127.0.0.1 where nothing listens: connecting is refused.
    public static func closedPort() -> Int { freePort() }

    static func waitUntilListening(port: Int, deadline: Date) -> Bool {
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = UInt16(port).bigEndian
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
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

/// A peer's output, appended by the pipe's reader and read by the test.
final class ClientPeerOutput: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var data = Data()
    func append(_ d: Data) { lock.withLock { data.append(d) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
