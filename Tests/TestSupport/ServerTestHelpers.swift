import Foundation
import HTTP

/// One set of test certificates per test process (the openssl CLI is slow-ish).
public enum ServerTestCertificates {
    private static let made: Result<(TemporaryDirectory, OpenSSLTestCertificates), any Error> = Result {
        let dir = TemporaryDirectory(prefix: "ringcheck-server-certs")
        return (dir, try OpenSSLTestCertificates.make(in: dir))
    }

    /// The certificates, made on first use off the cooperative pool (the openssl CLI blocks).
    public static func get() async throws -> OpenSSLTestCertificates { try await offPool { try made.get().1 } }

    public static func tls() async throws -> TLSConfiguration {
        let c = try await get()
        return .files(certificateChain: c.certFile, privateKey: c.keyFile)
    }
}

/// A handler for server tests. Paths:
/// - `/echo` (any method): 200 with the request body; `x-*` headers describe the request.
/// - `/big?n=BYTES`: a body of that many bytes (`abc…` repeating).
/// - `/slow?ms=N`: answers after N ms.
/// - `/reset`, `/reset-after`, `/goaway?code=N`, `/max-streams?n=N`: the matching `ConnectionDirective`.
/// - `/status?code=N`: that status.
public struct ServerTestHandler: HTTPHandler {
    public init() {}

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var h = HTTPHeaders()
        h.add("x-method", request.method)
        h.add("x-target", request.target)
        h.add("x-version", request.version.rawValue)
        h.add("x-authority", request.authority ?? "-")
        h.add("x-alpn", request.connection.alpn ?? "-")
        h.add("x-sni", request.connection.serverName ?? "-")
        h.add("x-stream-id", request.streamID.map(String.init) ?? "-")
        h.add("x-body-length", String(request.body.count))
        h.add("x-connection-id", String(request.connection.id))
        h.add("x-host-header", request.headers["host"] ?? "-")
        let q = request.query
        switch request.path {
        case "/big":
            return HTTPResponse(status: 200, headers: h, body: Self.bigBody(Int(q["n"] ?? "0") ?? 0))
        case "/slow":
            let ms = UInt64(q["ms"] ?? "100") ?? 100
            try? await Task.sleep(nanoseconds: ms * 1_000_000)
            return HTTPResponse(status: 200, headers: h, body: Array("slow\n".utf8))
        case "/reset":
            return HTTPResponse(status: 200, headers: h, body: [], directive: .resetWithoutResponse)
        case "/reset-after":
            return HTTPResponse(status: 200, headers: h, body: Array("bye\n".utf8), directive: .resetAfterResponse)
        case "/goaway":
            let code = UInt32(q["code"] ?? "0") ?? 0
            return HTTPResponse(
                status: 200, headers: h, body: Array("goaway\n".utf8),
                directive: .goawayAfterResponse(errorCode: code, debug: q["debug"] ?? "shutting down"))
        case "/max-streams":
            let n = UInt32(q["n"] ?? "10") ?? 10
            return HTTPResponse(
                status: 200, headers: h, body: Array("ok\n".utf8), directive: .setMaxConcurrentStreams(n))
        case "/status":
            return HTTPResponse(status: Int(q["code"] ?? "200") ?? 200, headers: h, body: Array("status\n".utf8))
        default:
            return HTTPResponse(status: 200, headers: h, body: request.body)
        }
    }

    /// `n` bytes of `abc…789\n` repeating, made by doubling copies: appending the pattern piece by piece
    /// took seconds of a pool thread for the 16 MB answers in a debug build.
    static func bigBody(_ n: Int) -> [UInt8] {
        let pattern = Array("abcdefghijklmnopqrstuvwxyz0123456789\n".utf8)
        guard n > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: n) { buffer, count in
            var filled = min(n, pattern.count)
            pattern.withUnsafeBytes {
                buffer.baseAddress!.initialize(from: $0.bindMemory(to: UInt8.self).baseAddress!, count: filled)
            }
            while filled < n {
                let chunk = min(filled, n - filled)
                (buffer.baseAddress! + filled).initialize(from: buffer.baseAddress!, count: chunk)
                filled += chunk
            }
            count = n
        }
    }
}

/// Starts a server on an ephemeral port with `ServerTestHandler` (or `handler`), runs `body`, stops it.
public func withTestServer<T: Sendable>(
    tls: Bool = false, configure: (inout HTTPServer.Configuration) -> Void = { _ in },
    handler: any HTTPHandler = ServerTestHandler(), _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var config = HTTPServer.Configuration()
    if tls { config.tls = try await ServerTestCertificates.tls() }
    configure(&config)
    let server = HTTPServer(configuration: config, handler: handler)
    try server.start()
    // stop() joins the loop thread: keep that wait off the cooperative pool the handlers run on.
    do {
        let result = try await body(server)
        await offPool { server.stop() }
        return result
    } catch {
        await offPool { server.stop() }
        throw error
    }
}

/// A blocking TCP client for sending exactly the bytes a test wants (use it inside `offPool`).
public final class RawSocket: @unchecked Sendable {  // used from one thread at a time
    public let fd: Int32

    /// Connects to 127.0.0.1:port with a receive timeout. The default only catches a hang: a loaded machine
    /// can delay an answer by seconds, and a test that expects silence should pass its own, shorter timeout.
    public init(port: Int, receiveTimeout: Double = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard r == 0 else {
            close(fd)
            throw NSError(domain: "RawSocket", code: Int(errno))
        }
        var tv = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    private var isClosed = false

    deinit { if !isClosed { close(fd) } }

    /// Sends every byte; false if the peer is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress! + off, $0.count - off, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    @discardableResult
    public func send(_ s: String) -> Bool { send(Array(s.utf8)) }

    /// Reads until the peer closes, an error, the receive timeout, or `until` returns true for the bytes so far.
    public func receive(until: ([UInt8]) -> Bool = { _ in false }) -> (bytes: [UInt8], closed: Bool, reset: Bool) {
        var all: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 {
                all.append(contentsOf: buf[0..<n])
                if until(all) { return (all, false, false) }
            } else if n == 0 {
                return (all, true, false)
            } else {
                let e = errno
                if e == EINTR { continue }
                return (all, e == ECONNRESET, e == ECONNRESET)
            }
        }
    }

    /// True when the peer closed or reset the connection (it may have sent bytes before), without
    /// reading or waiting.
    public var peerHasClosed: Bool {
        let rdhup: Int16 = 0x2000  // POLLRDHUP (Linux), which Glibc's overlay does not import
        var p = pollfd(fd: fd, events: Int16(POLLIN) | rdhup, revents: 0)
        guard poll(&p, 1, 0) == 1 else { return false }
        return p.revents & (rdhup | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    /// Closes with RST (SO_LINGER 0).
    public func reset() {
        var l = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, socklen_t(MemoryLayout<linger>.size))
        close(fd)
        isClosed = true
    }
}

extension Array where Element == UInt8 {
    /// The bytes as text (lossy), for assertions.
    public var text: String { String(decoding: self, as: UTF8.self) }

    /// How many times `needle` occurs.
    public func occurrences(of needle: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}

/// curl's common arguments for tests: quiet, bounded in time.
public let curlBase = ["-sS", "--max-time", "10"]
