import Foundation
import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerHTTP1Tests {
    @Test func plainKeepAliveReusesTheConnection() async throws {
        try await withTestServer { server in
            let base = "http://127.0.0.1:\(server.port)"
            let r = try await runProcess(
                "curl",
                curlBase + [
                    "--http1.1", "-D", "-", "-w", "|%{num_connects}|%{http_version}\\n", "\(base)/a", "\(base)/b",
                ])
            #expect(r.status == 0, "\(r.stderr)")
            // Both answers came over one connection: the second reports 0 new connects.
            #expect(r.stdout.contains("|1|1.1"))
            #expect(r.stdout.contains("|0|1.1"))
            #expect(r.stdout.contains("x-target: /a"))
            #expect(r.stdout.contains("x-target: /b"))
            let ids = r.stdout.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("x-connection-id") }
            #expect(ids.count == 2 && ids[0] == ids[1])
        }
    }

    @Test func chunkedUploadIsEchoed() async throws {
        try await withTestServer { server in
            let body = String(repeating: "chunk-data-", count: 5000)  // 55 KB
            let r = try await runProcess(
                "curl",
                curlBase + [
                    "--http1.1", "-H", "Transfer-Encoding: chunked", "--data-binary", "@-",
                    "http://127.0.0.1:\(server.port)/echo",
                ], input: Array(body.utf8))
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.count == body.count)
            #expect(Bool(r.stdout == body))
        }
    }

    @Test func postOverTLSWithHTTP11() async throws {
        try await withTestServer(tls: true) { server in
            let ca = try await ServerTestCertificates.get().caFile
            let body = String(repeating: "0123456789", count: 20_000)  // 200 KB
            let r = try await runProcess(
                "curl",
                curlBase + [
                    "--http1.1", "--cacert", ca, "--data-binary", "@-", "-D", "/dev/stderr", "-w",
                    "%{http_version}", "https://localhost:\(server.port)/echo",
                ], input: Array(body.utf8))
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.count == body.count + 3)
            #expect(Bool(r.stdout == body + "1.1"))
            #expect(r.stderr.contains("x-alpn: http/1.1"))
            #expect(r.stderr.contains("x-sni: localhost"))
            #expect(r.stderr.contains("x-authority: localhost:\(server.port)"))
        }
    }

    @Test func tlsWithoutALPNFallsBackToHTTP11() async throws {
        try await withTestServer(tls: true) { server in
            let ca = try await ServerTestCertificates.get().caFile
            let r = try await runProcess(
                "curl",
                curlBase + [
                    "--http1.1", "--no-alpn", "--cacert", ca, "-D", "-", "-o", "/dev/null",
                    "https://localhost:\(server.port)/echo",
                ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("x-alpn: -"))
            #expect(r.stdout.contains("x-version: HTTP/1.1"))
        }
    }

    @Test func headHasLengthButNoBody() async throws {
        try await withTestServer { server in
            let port = server.port
            let reply = try await offPool {
                let s = try RawSocket(port: port)
                s.send(
                    "HEAD /big?n=1000 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                )
                return s.receive().bytes.text
            }
            #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(reply.contains("content-length: 1000\r\n"))
            #expect(!reply.contains("abcdef"))
            #expect(reply.contains("x-target: /echo"))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withTestServer { server in
            let port = server.port
            let reply = try await offPool {
                let s = try RawSocket(port: port)
                // The first is slow; its answer must still come first.
                s.send(
                    "GET /slow?ms=150 HTTP/1.1\r\nHost: x\r\n\r\nPOST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                )
                return s.receive()
            }
            let text = reply.bytes.text
            #expect(reply.closed)
            let slow = try #require(text.range(of: "x-target: /slow"))
            let echo = try #require(text.range(of: "x-target: /echo"))
            let last = try #require(text.range(of: "x-target: /last"))
            #expect(slow.lowerBound < echo.lowerBound && echo.lowerBound < last.lowerBound)
            #expect(text.contains("\r\n\r\nhello"))
            #expect(reply.bytes.occurrences(of: "HTTP/1.1 200 OK") == 3)
            #expect(text.contains("connection: close"))
        }
    }

    @Test func http10ClosesAfterTheAnswer() async throws {
        try await withTestServer { server in
            let port = server.port
            let reply = try await offPool {
                let s = try RawSocket(port: port)
                s.send("GET /echo HTTP/1.0\r\n\r\n")
                return s.receive()
            }
            #expect(reply.closed)
            #expect(reply.bytes.text.hasPrefix("HTTP/1.1 200 OK"))
        }
    }

    @Test func expectContinueGetsAnInterimAnswer() async throws {
        try await withTestServer { server in
            let port = server.port
            let reply = try await offPool { () -> String in
                let s = try RawSocket(port: port)
                s.send("PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
                let interim = s.receive { $0.text.contains("\r\n\r\n") }.bytes.text
                s.send("data")
                let final = s.receive { $0.text.hasSuffix("data") }.bytes.text
                return interim + final
            }
            #expect(reply.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK"))
            #expect(reply.hasSuffix("data"))
        }
    }
}
