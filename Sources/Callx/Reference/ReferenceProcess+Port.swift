import Conformance
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How `ReferenceProcess` tells that its child, not another process, got the port it was given.
extension ReferenceProcess {
    /// Waits until the started child listens on `port` (true) or has exited (false). A child that finds the port
    /// taken exits at once; one still starting after `patience` is stuck. The patience is long because a child
    /// started on a loaded 2-core machine (a whole test run beside compilers) was seen taking over 30 s to listen.
    package static let patience: Duration = .seconds(120)

    package static func childListens(_ lifecycle: BackendLifecycle, on port: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + patience
        while let pid = await lifecycle.pid {
            if listening(pid: pid, port: port) { return true }
            guard ContinuousClock.now < deadline else {
                throw BackendLifecycleError(
                    "something answered on 127.0.0.1:\(port), but the reference backend (process \(pid)) did not "
                        + "listen there within \(patience.components.seconds) s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Whether process `pid` holds a TCP socket listening on `port`: its IPv4 listeners in
    /// `/proc/PID/net/tcp` (state 0A), matched by inode against its open descriptors.
    package static func listening(pid: pid_t, port: Int) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8) else { return false }
        let local = ":" + String(format: "%04X", port)
        let sockets = Set(
            table.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let f = line.split(separator: " ")
                return f.count > 9 && f[1].hasSuffix(local) && f[3] == "0A" ? "socket:[\(f[9])]" : nil
            })
        guard !sockets.isEmpty, let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        else { return false }
        return fds.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")).map(sockets.contains)
                ?? false
        }
    }

    /// Whether the latest start's output (after the log's last header line) says `port` was taken.
    package static func portWasTaken(_ port: Int, log: String) -> Bool {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let latest = text.components(separatedBy: "==== ringcheck ").last ?? ""
        return latest.contains(ServedReferenceText.portInUse(host: "127.0.0.1", port: port))
    }
}
