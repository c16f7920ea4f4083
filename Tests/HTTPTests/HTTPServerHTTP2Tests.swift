import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerHTTP2Tests {
    @Test func curlNegotiatesH2OverTLS() async throws {
        try await withTestServer(tls: true) { server in
            let ca = try await ServerTestCertificates.get().caFile
            let r = try await runProcess(
                "curl",
                curlBase + [
                    "--http2", "--cacert", ca, "-D", "/dev/stderr", "-w", "|%{http_version}", "-d", "hello h2",
                    "https://localhost:\(server.port)/echo?x=1",
                ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == "hello h2|2")
            #expect(r.stderr.contains("x-alpn: h2"))
            #expect(r.stderr.contains("x-version: HTTP/2"))
            #expect(r.stderr.contains("x-stream-id: 1"))
            #expect(r.stderr.contains("x-method: POST"))
            #expect(r.stderr.contains("x-target: /echo?x=1"))
            #expect(r.stderr.contains("x-authority: localhost:\(server.port)"))
            #expect(r.stderr.contains("x-host-header: -"))
        }
    }

    @Test func priorKnowledgeOnPlainPort() async throws {
        try await withTestServer { server in
            let base = "http://127.0.0.1:\(server.port)"
            // One URL per curl run: curl 7.88.1 fails reusing prior-knowledge connections (curl/curl#10634).
            let r = try await runProcess(
                "curl", curlBase + ["--http2-prior-knowledge", "-w", "|%{http_version}", "-d", "abc", "\(base)/echo"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == "abc|2")
            // nghttp sends both requests on one connection.
            let n = try await runProcess("nghttp", ["-n", "-v", "\(base)/a", "\(base)/b"])
            #expect(n.status == 0, "\(n.stderr)")
            #expect(n.stdout.contains("x-target: /a"))
            #expect(n.stdout.contains("x-target: /b"))
            let ids = Set(
                n.stdout.split(whereSeparator: \.isNewline).filter { $0.contains("x-connection-id") }.map {
                    $0.split(separator: " ").last!
                })
            #expect(ids.count == 1)
        }
    }

    @Test func nghttpLargeBodiesBothWays() async throws {
        try await withTestServer(tls: true) { server in
            let dir = TemporaryDirectory()
            var body = [UInt8](repeating: 0, count: 300_000)
            for i in body.indices { body[i] = UInt8(truncatingIfNeeded: i &* 7 &+ i >> 8) }
            let file = dir.file("upload.bin")
            try #require(FileManager.default.createFile(atPath: file, contents: Data(body)))
            let up = try await runProcess(
                "nghttp", ["-d", file, "https://127.0.0.1:\(server.port)/echo"])
            #expect(up.status == 0, "\(up.stderr)")
            #expect(up.stdoutBytes.count == body.count)
            #expect(Bool(up.stdoutBytes == body))
            let down = try await runProcess("nghttp", ["-v", "https://127.0.0.1:\(server.port)/big?n=500000"])
            #expect(down.status == 0)
            #expect(down.stdout.contains("content-length: 500000"))
            #expect(down.stdout.contains("x-alpn: h2"))
        }
    }

    @Test func fiftyConcurrentStreams() async throws {
        try await withTestServer { server in
            let r = try await runProcess(
                "h2load", ["-n", "200", "-c", "2", "-m", "50", "http://127.0.0.1:\(server.port)/slow?ms=20"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("200 succeeded"), "\(r.stdout)")
        }
    }

    @Test func h2loadOverTLS() async throws {
        try await withTestServer(tls: true) { server in
            let dir = TemporaryDirectory()
            let payload = try dir.write("payload.json", #"{"aps":{"alert":"hello"}}"#)
            let r = try await runProcess(
                "h2load", ["-n", "500", "-c", "4", "-m", "20", "-d", payload, "https://127.0.0.1:\(server.port)/echo"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("500 succeeded"), "\(r.stdout)")
        }
    }

    @Test func tlsWithoutALPNStillSpeaksH2() async throws {
        try await withTestServer(tls: true) { server in
            let ca = try await ServerTestCertificates.get().caFile
            let r = try await runProcess("/usr/bin/python3", ["-c", Python.noALPNClient, String(server.port), ca])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("alpn=None"))
            #expect(r.stdout.contains("status=200"))
            #expect(r.stdout.contains("x-alpn=-"))
            #expect(r.stdout.contains("x-version=HTTP/2"))
            #expect(r.stdout.contains("x-authority=api.push.apple.com"))  // from the host header
            #expect(r.stdout.contains("x-host-header=api.push.apple.com"))  // and kept among the headers
            #expect(r.stdout.contains("body=ping"))
        }
    }
}

/// Python clients built on the `h2` package (Debian python3-h2), independent of nghttp2.
enum Python {
    /// Connects with TLS and NO ALPN, sends the h2 preface and one POST with a `host` header instead
    /// of `:authority`, prints what came back. Args: port, CA file.
    static let noALPNClient = """
        import socket, ssl, sys
        import h2.connection, h2.config, h2.events
        port, ca = int(sys.argv[1]), sys.argv[2]
        ctx = ssl.create_default_context(cafile=ca)
        sock = ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5), server_hostname="localhost")
        print("alpn=%s" % sock.selected_alpn_protocol())
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        sid = conn.get_next_available_stream_id()
        conn.send_headers(sid, [(":method", "POST"), (":scheme", "https"), (":path", "/3/device/abc"),
                                ("host", "api.push.apple.com"), ("content-length", "4")])
        conn.send_data(sid, b"ping", end_stream=True)
        sock.sendall(conn.data_to_send())
        body = b""
        done = False
        while not done:
            data = sock.recv(65536)
            if not data:
                break
            for ev in conn.receive_data(data):
                if isinstance(ev, h2.events.ResponseReceived):
                    for k, v in ev.headers:
                        k = k.decode() if isinstance(k, bytes) else k
                        v = v.decode() if isinstance(v, bytes) else v
                        if k == ":status":
                            print("status=%s" % v)
                        elif k.startswith("x-"):
                            print("%s=%s" % (k, v))
                elif isinstance(ev, h2.events.DataReceived):
                    body += ev.data
                    conn.acknowledge_received_data(ev.flow_controlled_length, ev.stream_id)
                elif isinstance(ev, h2.events.StreamEnded):
                    done = True
            sock.sendall(conn.data_to_send())
        print("body=%s" % body.decode())
        """
}
