import Foundation
import HTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The reference backend's operational log: one line per API request and per push attempt, as a
/// careful backend writes it. Push tokens, request bodies and push payloads never appear in it
/// (CALLX-SEC-3) unless the `log-push-secrets` defect is on.
public final class BackendLog: Sendable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let lock = Mutex(())

    /// Appends to `path` (created if missing); `-` writes to standard output.
    public init(path: String) throws {
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw BackendLogError("cannot open the log file \(path): \(String(cString: strerror(errno)))")
            }
            fd = opened
            ownsDescriptor = true
        }
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// Writes one line, stamped with the UTC time.
    public func write(_ line: String) {
        let text = Self.timestamp() + " " + line.replacingOccurrences(of: "\n", with: " ") + "\n"
        lock.withLock { _ in
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var t = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &t)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday),
            Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec), now.tv_nsec / 1_000_000)
    }
}

public struct BackendLogError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Logs each request the API answers: method, path, status and time taken; with the
/// `log-push-secrets` defect also the request body (where push tokens travel).
struct LoggingHandler: HTTPHandler {
    let inner: any HTTPHandler
    let log: BackendLog
    let logBodies: Bool

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        let response = await inner.handle(request)
        let d = (ContinuousClock.now - started).components
        let ms = d.seconds * 1000 + d.attoseconds / 1_000_000_000_000_000
        var line = "api \(request.method) \(request.path) → \(response.status) (\(ms) ms)"
        if logBodies && !request.body.isEmpty { line += " body=" + String(decoding: request.body, as: UTF8.self) }
        log.write(line)
        return response
    }
}
