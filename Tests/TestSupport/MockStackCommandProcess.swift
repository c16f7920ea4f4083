import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `ringcheck mocks` running in the background as a user starts it: the built binary, in its own
/// working directory, with a clean signal state, output to files. Killed (SIGKILL) when released
/// while still running.
public final class MockStackCommandProcess: @unchecked Sendable {  // immutable after init; reaping is guarded by `lock`
    public let pid: pid_t
    /// The working directory; relative arguments resolve against it.
    public let directory: TemporaryDirectory
    public let stdoutFile: String
    public let stderrFile: String
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `ringcheck mocks` with `arguments` in `directory`, with `environment` added to this process's;
    /// `softDescriptorLimit` lowers its soft RLIMIT_NOFILE (as `ulimit -Sn`).
    public init(
        _ arguments: [String], directory: TemporaryDirectory, environment: [String: String] = [:],
        softDescriptorLimit: Int? = nil
    ) throws {
        self.directory = directory
        stdoutFile = directory.file("mocks.stdout")
        stderrFile = directory.file("mocks.stderr")
        let limit = softDescriptorLimit.map { "ulimit -Sn \($0) && " } ?? ""
        // `exec` keeps the shell's pid, so signals reach ringcheck itself.
        pid = try MockStackProcess.spawn(
            ["/bin/sh", "-c", limit + #"cd "$0" && exec "$@""#, directory.path, "/usr/bin/env"]
                + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                + [RingcheckBinary.path, "mocks"] + arguments,
            stdout: stdoutFile, stderr: stderrFile)
    }

    deinit {
        if status == nil { MockStackProcess.kill(pid) }
    }

    /// The exit status once the process has been reaped (`-signal` when a signal ended it).
    public var status: Int32? { lock.withLock { exitStatus } }

    /// Waits until `path` (relative to the working directory) exists and is non-empty; false when the
    /// process exits first or `timeout` runs out.
    public func waitForFile(_ path: String, timeout: Double = 120, poll: Duration = .milliseconds(5)) async -> Bool {
        let full = path.hasPrefix("/") ? path : directory.file(path)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let size = (try? FileManager.default.attributesOfItem(atPath: full))?[.size] as? Int, size > 0 {
                return true
            }
            if hasExited { return false }
            try? await Task.sleep(for: poll)
        }
        return false
    }

    /// True once the process has exited (reaps it without blocking).
    public var hasExited: Bool {
        if status != nil { return true }
        guard let status = MockStackProcess.wait(pid, timeout: 0) else { return false }
        lock.withLock { exitStatus = status }
        return true
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { _ = kill(pid, signal) }

    /// Waits up to `seconds` for the process to exit, on a thread of its own; its status or nil.
    public func exited(within seconds: Double) async -> Int32? {
        if let status { return status }
        let status: Int32? = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: MockStackProcess.wait(self.pid, timeout: seconds)) }
        }
        if let status { lock.withLock { exitStatus = status } }
        return status ?? self.status
    }

    public var stdout: String { (try? String(contentsOfFile: stdoutFile, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

    // MARK: Settings files

    /// The variables of an env file written by `ringcheck mocks`: `export NAME='value'` lines, values
    /// single-quoted with `'\''` for a quote.
    public static func parseEnvFile(_ text: String) -> [String: String] {
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            var value = ""
            var quoted = false
            var escaped = false
            for c in assignment[assignment.index(after: equals)...] {
                if escaped {
                    value.append(c)
                    escaped = false
                } else if c == "'" {
                    quoted.toggle()
                } else if c == "\\" && !quoted {
                    escaped = true
                } else {
                    value.append(c)
                }
            }
            variables[String(assignment[..<equals])] = value
        }
        return variables
    }
}

/// A TCP port on 127.0.0.1 held until released, to make another listener fail; with `listening: false`
/// it is bound but refuses connections, a port no other test's server can take meanwhile.
public final class MockStackOccupiedPort: @unchecked Sendable {  // immutable after init
    public let port: Int
    private let fd: Int32

    public init(listening: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && (!listening || listen(fd, 1) == 0) && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else {
            close(fd)
            throw MockStackClientError(message: "cannot hold a port: \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: addr.sin_port))
    }

    deinit { close(fd) }

    /// True when something accepts connections on 127.0.0.1:`port`.
    /// The inodes of the IPv4 sockets listening on `ports` now (`/proc/net/tcp`, state 0A). A socket is
    /// the same listener only while its inode is: a port another process took after it closed has a new one,
    /// so a test that stopped a process can ask whether *its* listeners are gone while other tests run.
    public static func listeningSocketInodes(_ ports: [Int]) -> Set<String> {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return [] }
        var out: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 9, f[3] == "0A", let colon = f[1].lastIndex(of: ":"),
                let port = Int(f[1][f[1].index(after: colon)...], radix: 16), ports.contains(port)
            else { continue }
            out.insert(String(f[9]))
        }
        return out
    }

    public static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
