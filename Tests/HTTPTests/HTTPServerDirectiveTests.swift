import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerDirectiveTests {
    @Test func resetWithoutResponseOverHTTP1AndH2() async throws {
        try await withTestServer(tls: true) { server in
            let ca = try await ServerTestCertificates.get().caFile
            let url = "https://localhost:\(server.port)"
            for version in ["--http1.1", "--http2"] {
                let r = try await runProcess("curl", curlBase + [version, "--cacert", ca, "\(url)/reset"])
                #expect(r.status != 0, "\(version): \(r.stdout)")
                #expect(r.stdout.isEmpty)
                let ok = try await runProcess("curl", curlBase + [version, "--cacert", ca, "\(url)/echo"])
                #expect(ok.status == 0, "\(ok.stderr)")
            }
        }
    }

    @Test func resetAfterResponseDeliversThenResets() async throws {
        try await withTestServer { server in
            let port = server.port
            let reply = try await offPool {
                let s = try RawSocket(port: port)
                s.send("GET /reset-after HTTP/1.1\r\nHost: x\r\n\r\n")
                return s.receive()
            }
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(reply.bytes.text.hasSuffix("bye\n"))
            #expect(reply.reset)
            let h2 = try await runProcess("nghttp", ["-v", "http://127.0.0.1:\(port)/reset-after"])
            #expect(h2.stdout.contains(":status: 200"))
        }
    }

    @Test func goawayAfterResponseIsSeenByNghttp() async throws {
        try await withTestServer(tls: true) { server in
            let r = try await runProcess(
                "nghttp", ["-v", "https://127.0.0.1:\(server.port)/goaway?code=11&debug=enhance-your-calm"])
            #expect(r.stdout.contains(":status: 200"))
            #expect(r.stdout.contains("goaway\n"))
            #expect(r.stdout.contains("recv GOAWAY frame"), "\(r.stdout)")
            #expect(r.stdout.contains("last_stream_id=13, error_code=ENHANCE_YOUR_CALM(0x0b)"))
            #expect(r.stdout.contains("[enhance-your-calm]"))
        }
    }

    @Test func goawayOnHTTP1ClosesTheConnection() async throws {
        try await withTestServer { server in
            let port = server.port
            let reply = try await offPool {
                let s = try RawSocket(port: port)
                s.send("GET /goaway HTTP/1.1\r\nHost: x\r\n\r\n")
                return s.receive()
            }
            #expect(reply.closed)
            #expect(reply.bytes.text.contains("connection: close\r\n"))
        }
    }

    @Test func maxConcurrentStreamsStartsAtOneThenRises() async throws {
        try await withTestServer(configure: { $0.initialMaxConcurrentStreams = 1 }) { server in
            let r = try await runProcess("nghttp", ["-v", "http://127.0.0.1:\(server.port)/max-streams?n=7"])
            #expect(r.status == 0, "\(r.stderr)")
            let text = r.stdout
            let first = try #require(text.range(of: "[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"))
            let raised = try #require(text.range(of: "[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"))
            #expect(first.lowerBound < raised.lowerBound)
            #expect(text.contains(":status: 200"))
        }
    }

    @Test func oneStreamAtATimeStillServesMany() async throws {
        try await withTestServer(configure: { $0.initialMaxConcurrentStreams = 1 }) { server in
            let r = try await runProcess(
                "h2load", ["-n", "20", "-c", "1", "-m", "1", "http://127.0.0.1:\(server.port)/slow?ms=5"])
            #expect(r.stdout.contains("20 succeeded"), "\(r.stdout)")
        }
    }
}
