import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerLimitTests {
    private func raw(_ port: Int, _ request: String) async throws -> (bytes: [UInt8], closed: Bool, reset: Bool) {
        try await offPool {
            let s = try RawSocket(port: port)
            s.send(request)
            return s.receive()
        }
    }

    @Test func http1HeaderBlockTooLargeIs431() async throws {
        try await withTestServer(configure: { $0.maxHeaderBytes = 4096 }) { server in
            let big = String(repeating: "v", count: 5000)
            let reply = try await raw(server.port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n")
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 431 "))
            #expect(reply.closed)
        }
    }

    @Test func http1BodyTooLargeIs413() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = 1000 }) { server in
            let reply = try await raw(
                server.port,
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "a", count: 5000))
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 413 "))
            #expect(reply.closed || reply.reset)
            let chunked = try await raw(
                server.port,
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n"
                    + String(repeating: "a", count: 0x800)
                    + "\r\n0\r\n\r\n")
            #expect(chunked.bytes.text.hasPrefix("HTTP/1.1 413 "))
            // curl sees the status too.
            let r = try await runProcess(
                "curl",
                curlBase + [
                    "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@-",
                    "http://127.0.0.1:\(server.port)/echo",
                ],
                input: [UInt8](repeating: 65, count: 200_000))
            #expect(r.stdout == "413")
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Header\r\n\r\n",
        "GET / HTTP/9.9\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nnothex\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
    ])
    func http1MalformedIs400AndClose(_ request: String) async throws {
        try await withTestServer { server in
            let reply = try await raw(server.port, request)
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 400 "), "\(request.debugDescription)")
            #expect(reply.bytes.text.contains("connection: close"))
            #expect(reply.closed)
        }
    }

    @Test func h2HeaderBlockTooLargeIs431() async throws {
        try await withTestServer(configure: { $0.maxHeaderBytes = 4096 }) { server in
            let big = String(repeating: "v", count: 6000)
            let r = try await runProcess(
                "nghttp", ["-v", "-H", "x-big: \(big)", "http://127.0.0.1:\(server.port)/echo"])
            #expect(r.stdout.contains(":status: 431"), "\(r.stdout.suffix(2000))")
            // The connection stays usable afterwards.
            let ok = try await runProcess("nghttp", ["-v", "http://127.0.0.1:\(server.port)/echo"])
            #expect(ok.stdout.contains(":status: 200"))
        }
    }

    @Test func h2MalformedRequestIsResetAndTheConnectionLivesOn() async throws {
        let script = """
            import socket, sys
            import h2.connection, h2.config, h2.events
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
            c = h2.connection.H2Connection(config=h2.config.H2Configuration(
                client_side=True, validate_outbound_headers=False, normalize_outbound_headers=False))
            c.initiate_connection()
            c.send_headers(1, [(":method", "GET"), (":scheme", "http"), (":authority", "x")], end_stream=True)
            c.send_headers(3, [(":method", "GET"), (":scheme", "http"), (":path", "/ok"), (":authority", "x"),
                               ("Upper-Case", "not allowed in h2")], end_stream=True)
            c.send_headers(5, [(":method", "GET"), (":scheme", "http"), (":path", "/fine"), (":authority", "x")],
                           end_stream=True)
            s.sendall(c.data_to_send())
            pending = {1, 3, 5}
            while pending:
                data = s.recv(65536)
                if not data:
                    break
                for ev in c.receive_data(data):
                    if isinstance(ev, h2.events.StreamReset):
                        print("reset %d code=%d" % (ev.stream_id, ev.error_code))
                        pending.discard(ev.stream_id)
                    elif isinstance(ev, h2.events.ResponseReceived):
                        print("response %d %s" % (ev.stream_id, dict(ev.headers)[b":status"].decode()))
                    elif isinstance(ev, h2.events.StreamEnded):
                        pending.discard(ev.stream_id)
                s.sendall(c.data_to_send())
            """
        try await withTestServer { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", script, String(server.port)])
            #expect(r.stdout.contains("reset 1 code=1"), "\(r.stdout) \(r.stderr)")
            #expect(r.stdout.contains("reset 3 code=1"))
            #expect(r.stdout.contains("response 5 200"))
        }
    }

    @Test func h2BodyTooLargeIs413() async throws {
        try await withTestServer(tls: true, configure: { $0.maxBodyBytes = 100_000 }) { server in
            let dir = TemporaryDirectory()
            let file = dir.file("big.bin")
            try #require(FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x41, count: 300_000)))
            let r = try await runProcess("nghttp", ["-v", "-d", file, "https://127.0.0.1:\(server.port)/echo"])
            #expect(r.stdout.contains(":status: 413"), "\(r.stdout.suffix(2000))")
            let small = dir.file("small.bin")
            try #require(FileManager.default.createFile(atPath: small, contents: Data(repeating: 0x41, count: 100_000)))
            let ok = try await runProcess("nghttp", ["-d", small, "https://127.0.0.1:\(server.port)/echo"])
            #expect(ok.stdout.count == 100_000)
        }
    }
}
