import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerRobustnessTests {
    /// A normal request after the abuse: the server must still answer.
    private func stillServes(_ server: HTTPServer, tls: Bool) async throws {
        var args = curlBase + ["-o", "/dev/null", "-w", "%{http_code}"]
        if tls {
            args += [
                "--cacert", try await ServerTestCertificates.get().caFile, "https://localhost:\(server.port)/echo",
            ]
        } else {
            args += ["http://127.0.0.1:\(server.port)/echo"]
        }
        let r = try await runProcess("curl", args)
        #expect(r.stdout == "200", "\(r.stderr)")
    }

    private static func randomBytes(_ n: Int, seed: inout UInt64) -> [UInt8] {
        (0..<n).map { _ in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
    }

    /// Opens one connection per payload, sends them all, then collects what each got back and whether
    /// the server ended the connection (rather than the client's `timeout`, which only catches a hang).
    private static func blast(_ port: Int, _ payloads: [[UInt8]], timeout: Double = 20) throws
        -> [(bytes: [UInt8], ended: Bool)]
    {
        let sockets = try payloads.map { payload -> RawSocket in
            let s = try RawSocket(port: port, receiveTimeout: timeout)
            s.send(payload)
            return s
        }
        return sockets.map {
            let r = $0.receive()
            return (r.bytes, r.closed || r.reset)
        }
    }

    @Test(arguments: [false, true])
    func randomBytes(tls: Bool) async throws {
        try await withTestServer(tls: tls, configure: { $0.idleTimeoutSeconds = 0.5 }) { server in
            let port = server.port
            let replies = try await offPool {
                var seed: UInt64 = 42
                var payloads: [[UInt8]] = []
                for size in [1, 7, 24, 100, 5000, 70_000] {
                    for prefix in [
                        "", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "GET / HTTP/1.1\r\n", "\u{16}\u{3}\u{1}\u{2}\0\u{1}",
                    ] {
                        payloads.append(Array(prefix.utf8) + Self.randomBytes(size, seed: &seed))
                    }
                }
                return try Self.blast(port, payloads)
            }
            // The server closed every connection (a reply to garbage, or the 0.5 s idle timeout): none was
            // left hanging until the client gave up.
            #expect(replies.count == 24)
            let hanging = replies.indices.filter { !replies[$0].ended }
            #expect(hanging.isEmpty, "payloads \(hanging) got no close")
            try await stillServes(server, tls: tls)
        }
    }

    @Test func truncatedH2Frames() async throws {
        try await withTestServer(configure: { $0.idleTimeoutSeconds = 0.5 }) { server in
            let port = server.port
            let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
            let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
            let cases: [[UInt8]] = [
                preface + [0, 0],  // half a frame header
                preface + settings + [0, 0, 50, 1, 5, 0, 0, 0, 1, 0x82],  // HEADERS promising 50 bytes, sends 1
                preface + settings + [0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1],  // a 16 MiB DATA frame (too big)
                preface + settings + [0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0],  // zero window increment
                preface + settings + [0, 0, 3, 1, 4, 0, 0, 0, 1, 0xff, 0xff, 0xff],  // HPACK garbage
            ]
            let replies = try await offPool { try Self.blast(port, cases) }
            // Protocol errors are answered with GOAWAY (frame type 7) after the server's SETTINGS.
            #expect(replies[2].bytes.contains(7) && replies[3].bytes.contains(7))
            try await stillServes(server, tls: false)
        }
    }

    @Test func tlsHandshakeGarbageAndTruncation() async throws {
        try await withTestServer(tls: true) { server in
            let port = server.port
            try await offPool {
                // A ClientHello record header announcing more than is sent, then nothing.
                let a = try RawSocket(port: port, receiveTimeout: 0.3)
                a.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03])
                _ = a.receive()
                // Plain HTTP on the TLS port.
                let b = try RawSocket(port: port, receiveTimeout: 20)
                b.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                let reply = b.receive()
                #expect(reply.closed || reply.reset)
            }
            // A real handshake that the client abandons half-way.
            _ = try await runProcess(
                "sh", ["-c", "echo | timeout 2 openssl s_client -connect 127.0.0.1:\(port) -alpn h2 >/dev/null 2>&1"])
            try await stillServes(server, tls: true)
        }
    }

    @Test func clientThatNeverReadsIsCutOff() async throws {
        try await withTestServer(configure: { $0.maxBufferedOutputBytes = 2 << 20 }) { server in
            let port = server.port
            // The idle timeout stays at its default (60 s), far beyond the client's 30 s patience: only the
            // output cap can end this connection in time.
            let ended = try await offPool { () -> (ended: Bool, errno: Int32) in
                let s = try RawSocket(port: port, receiveTimeout: 30)
                var small: Int32 = 4096
                setsockopt(s.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(4))
                // Keep asking for 1 MB answers without reading any of them.
                var sent = true
                for _ in 0..<64 where sent {
                    sent = s.send("GET /big?n=1000000 HTTP/1.1\r\nHost: x\r\n\r\n")
                    usleep(5_000)
                }
                // The server resets the connection once its output cap is hit.
                var buf = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = recv(s.fd, &buf, buf.count, 0)
                    if n == 0 { return (true, 0) }
                    if n < 0 {
                        let e = errno
                        if e == EINTR { continue }
                        return (e == ECONNRESET, e)  // not EAGAIN: the client's patience ran out
                    }
                }
            }
            #expect(ended.ended, "the server kept the connection until the client gave up (errno \(ended.errno))")
            try await stillServes(server, tls: false)
        }
    }

    @Test func stalledReaderTimesOut() async throws {
        try await withTestServer(configure: { $0.idleTimeoutSeconds = 0.5 }) { server in
            let port = server.port
            let got = try await offPool { () -> (bytes: Int, reset: Bool, errno: Int32) in
                let s = try RawSocket(port: port, receiveTimeout: 30)
                var small: Int32 = 4096
                setsockopt(s.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(4))
                // Larger than what the kernel buffers on both sides, so the server holds the rest.
                s.send("GET /big?n=16000000 HTTP/1.1\r\nHost: x\r\n\r\n")
                sleep(2)  // never read while the server tries to write
                var total = 0
                var buf = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = recv(s.fd, &buf, buf.count, 0)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 {
                        let e = n < 0 ? errno : 0
                        return (total, e == ECONNRESET, e)
                    }
                    total += n
                }
            }
            #expect(got.bytes < 16_000_000)
            #expect(got.reset, "errno \(got.errno)")
            try await stillServes(server, tls: false)
        }
    }

    @Test func stalledH2ReaderTimesOut() async throws {
        let script = """
            import socket, sys, time
            import h2.connection, h2.config, h2.settings
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", int(sys.argv[1])))
            c = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
            c.initiate_connection()
            c.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 2**31 - 1})
            c.increment_flow_control_window(2**30)
            c.send_headers(1, [(":method", "GET"), (":scheme", "http"), (":path", "/big?n=16000000"),
                               (":authority", "x")], end_stream=True)
            s.sendall(c.data_to_send())
            time.sleep(2)
            total = 0
            s.settimeout(30)
            try:
                while True:
                    d = s.recv(65536)
                    if not d:
                        print("eof")
                        break
                    total += len(d)
            except ConnectionResetError:
                print("reset")
            except socket.timeout:
                print("timeout")
            print("total=%d" % total)
            """
        try await withTestServer(configure: { $0.idleTimeoutSeconds = 0.5 }) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", script, String(server.port)])
            #expect(r.stdout.hasPrefix("reset") || r.stdout.hasPrefix("eof"), "\(r.stdout) \(r.stderr)")
            let total =
                Int(r.stdout.split(separator: "=").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
            #expect(total >= 0 && total < 16_000_000)
            try await stillServes(server, tls: false)
        }
    }

    @Test func resetMidRequest() async throws {
        try await withTestServer(tls: true) { server in
            let port = server.port
            try await offPool {
                let s = try RawSocket(port: port)
                s.send([0x16, 0x03, 0x01, 0x00, 0x10])
                s.reset()
            }
            try await withTestServer { plain in
                let p = plain.port
                try await offPool {
                    let s = try RawSocket(port: p)
                    s.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc")
                    s.reset()
                }
                try await stillServes(plain, tls: false)
            }
            try await stillServes(server, tls: true)
        }
    }

    @Test func clientGoneBeforeTheHandlerAnswers() async throws {
        try await withTestServer { server in
            let port = server.port
            try await offPool {
                let s = try RawSocket(port: port)
                s.send("GET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\nGET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n")
                s.reset()
            }
            // The same over h2: curl gives up before the answer.
            let r = try await runProcess(
                "curl", ["-sS", "--max-time", "0.1", "--http2-prior-knowledge", "http://127.0.0.1:\(port)/slow?ms=300"])
            #expect(r.status == 28)
            try await Task.sleep(nanoseconds: 450_000_000)  // the late answers arrive now and must be dropped
            try await stillServes(server, tls: false)
        }
    }

    @Test func idleConnectionsAreClosed() async throws {
        try await withTestServer(tls: true, configure: { $0.idleTimeoutSeconds = 0.3 }) { server in
            let port = server.port
            // The client waits up to 30 s; the default idle timeout (60 s) would not close the connection
            // before that, the configured 0.3 s does.
            let r = try await offPool { try RawSocket(port: port, receiveTimeout: 30).receive() }
            #expect(r.closed || r.reset, "the connection stayed open until the client gave up")
        }
    }
}
