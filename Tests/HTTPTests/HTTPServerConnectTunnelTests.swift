import HTTP
import TestSupport
import Testing

/// A plain listener with `connectTunnel`: an HTTPS forward proxy that terminates TLS itself and
/// serves the tunnelled requests with its own handler, refusing the targets `decide` refuses.
@Suite struct HTTPServerConnectTunnelTests {
    /// Describes how a request arrived, tunnel included.
    static let handler = ClosureHandler { request in
        var h = HTTPHeaders()
        h.add("x-version", request.version.rawValue)
        h.add("x-tls", String(request.connection.isTLS))
        h.add("x-sni", request.connection.serverName ?? "-")
        h.add("x-alpn", request.connection.alpn ?? "-")
        h.add("x-tunnel", request.connection.tunnelAuthority ?? "-")
        h.add("x-authority", request.authority ?? "-")
        return HTTPResponse(status: 200, headers: h, body: Array("tunnelled \(request.target)\n".utf8))
    }

    /// Accepts `localhost` on port 443 only.
    static func configure(_ tls: TLSConfiguration) -> (inout HTTPServer.Configuration) -> Void {
        { config in
            config.connectTunnel = ConnectTunnel(tls: tls) { host, port in
                host == "localhost" && port == 443 ? nil : .text(403, "not served: \(host):\(port)\n")
            }
            config.initialMaxConcurrentStreamsByServerName = ["localhost": 7]
        }
    }

    @Test func authorityFormTargets() {
        #expect(ConnectTunnel.authority("api.push.apple.com:443")! == ("api.push.apple.com", 443))
        #expect(ConnectTunnel.authority("API.Push.Apple.com:2197")! == ("api.push.apple.com", 2197))
        #expect(ConnectTunnel.authority("[::1]:8443")! == ("::1", 8443))
        #expect(ConnectTunnel.authority("127.0.0.1:1")! == ("127.0.0.1", 1))
        for bad in [
            "api.push.apple.com", "api.push.apple.com:", ":443", "host:0", "host:65536", "host:+443", "host:44a",
            "/path:443", "a b:443", "[::1:443", "[]:443", "[zz]:443", "host:0443443", "ex%61mple.com:443",
        ] {
            #expect(ConnectTunnel.authority(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: ["--http2", "--http1.1"])
    func curlThroughTheProxyReachesTheHandler(version: String) async throws {
        let certs = try await ServerTestCertificates.get()
        let tls = try await ServerTestCertificates.tls()
        try await withTestServer(configure: Self.configure(tls), handler: Self.handler) { server in
            let r = try await runProcess(
                "curl",
                curlBase + [
                    version, "-D", "-", "--proxy", "http://127.0.0.1:\(server.port)", "--cacert", certs.caFile,
                    "https://localhost/hello",
                ])
            #expect(r.status == 0, "\(r.stderr)")
            let text = r.stdout.lowercased()
            #expect(text.contains("http/1.1 200 connection established\r\n\r\n"), "\(r.stdout)")
            #expect(text.contains("x-tls: true") && text.contains("x-sni: localhost"), "\(r.stdout)")
            #expect(text.contains("x-tunnel: localhost:443"), "\(r.stdout)")
            let expected = version == "--http2" ? "x-version: http/2" : "x-version: http/1.1"
            #expect(text.contains(expected) && text.contains("tunnelled /hello"), "\(r.stdout)")
        }
    }

    @Test func refusedAndMalformedConnectsAreAnsweredAndClosed() async throws {
        let tls = try await ServerTestCertificates.tls()
        try await withTestServer(configure: Self.configure(tls), handler: Self.handler) { server in
            let port = server.port
            let requests = [
                "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                "CONNECT localhost:8443 HTTP/1.1\r\n\r\n",
                "CONNECT localhost HTTP/1.1\r\n\r\n",
                "CONNECT localhost:443:443 HTTP/1.1\r\n\r\n",
                "\u{16}\u{03}\u{01}\u{00}\u{a5}\u{01}\u{00}\r\n\r\n",
            ]
            let answers = try await offPool {
                try requests.map { request -> (String, Bool) in
                    let socket = try RawSocket(port: port, receiveTimeout: 10)
                    socket.send(request)
                    let r = socket.receive()
                    return (r.bytes.text, r.closed)
                }
            }
            #expect(answers[0].0.hasPrefix("HTTP/1.1 403 ") && answers[0].0.contains("not served: example.com:443"))
            #expect(answers[1].0.hasPrefix("HTTP/1.1 403 ") && answers[1].0.contains("localhost:8443"))
            #expect(answers[2].0.hasPrefix("HTTP/1.1 400 ") && answers[2].0.contains("host:port"))
            #expect(answers[3].0.hasPrefix("HTTP/1.1 400 "), "\(answers[3].0)")
            #expect(answers[4].0.hasPrefix("HTTP/1.1 400 "), "\(answers[4].0)")
            #expect(answers.allSatisfy { $0.1 }, "every refusal closes the connection")
            // An accepted tunnel whose first bytes are not TLS: answered 200, then closed by the handshake.
            let garbage = try await offPool { () -> (String, Bool) in
                let socket = try RawSocket(port: port, receiveTimeout: 10)
                socket.send("CONNECT localhost:443 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let r = socket.receive()
                return (r.bytes.text, r.closed)
            }
            #expect(garbage.0.hasPrefix("HTTP/1.1 200 Connection established\r\n\r\n") && garbage.1, "\(garbage)")
            // Not a CONNECT: the handler answers it as a plain request, unencrypted.
            let plain = try await runProcess("curl", curlBase + ["-D", "-", "http://127.0.0.1:\(port)/plain"])
            #expect(plain.stdout.lowercased().contains("x-tls: false"), "\(plain.stdout)")
        }
    }

    /// A client that sends its ClientHello right behind the CONNECT, without waiting for the 200, then
    /// a request and a CONNECT inside the tunnel.
    @Test func aClientHelloSentWithTheConnectIsNotLost() async throws {
        let certs = try await ServerTestCertificates.get()
        let tls = try await ServerTestCertificates.tls()
        let script = #"""
            import socket, ssl, sys
            port, ca = int(sys.argv[1]), sys.argv[2]
            ctx = ssl.create_default_context(cafile=ca)
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            tls = ctx.wrap_bio(incoming, outgoing, server_hostname="localhost")
            try:
                tls.do_handshake()
            except ssl.SSLWantReadError:
                pass
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n" + outgoing.read())
            buffered = b""
            while b"\r\n\r\n" not in buffered:
                buffered += sock.recv(4096)
            head, rest = buffered.split(b"\r\n\r\n", 1)
            print(head.split(b"\r\n")[0].decode())
            incoming.write(rest)

            def pump(step):
                while True:
                    try:
                        result = step()
                        sock.sendall(outgoing.read())
                        return result
                    except ssl.SSLWantReadError:
                        sock.sendall(outgoing.read())
                        data = sock.recv(65536)
                        if not data:
                            raise SystemExit("closed")
                        incoming.write(data)

            pump(tls.do_handshake)
            # A CONNECT inside the tunnel is no second tunnel: the handler answers it like any request.
            tls.write(b"GET /eager HTTP/1.1\r\nHost: localhost\r\n\r\n")
            tls.write(b"CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\nConnection: close\r\n\r\n")
            sock.sendall(outgoing.read())
            answer = b""
            while b"tunnelled localhost:443" not in answer:
                answer += pump(lambda: tls.read(65536))
            print(answer.decode(errors="replace"))
            """#
        try await withTestServer(configure: Self.configure(tls), handler: Self.handler) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", script, String(server.port), certs.caFile])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.hasPrefix("HTTP/1.1 200 Connection established\n"), "\(r.stdout)")
            #expect(
                r.stdout.contains("x-tunnel: localhost:443") && r.stdout.contains("tunnelled /eager"), "\(r.stdout)")
        }
    }

    /// SETTINGS_MAX_CONCURRENT_STREAMS follows the server name where one is configured.
    @Test func streamLimitByServerName() async throws {
        let tls = try await ServerTestCertificates.tls()
        try await withTestServer(
            configure: { config in
                config.tls = tls
                config.initialMaxConcurrentStreamsByServerName = ["localhost": 7]
            }, handler: Self.handler
        ) { server in
            let named = try await runProcess("nghttp", ["-nv", "https://localhost:\(server.port)/"])
            let bare = try await runProcess("nghttp", ["-nv", "https://127.0.0.1:\(server.port)/"])
            #expect(named.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7"), "\(named.stdout)")
            #expect(bare.stdout.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):100"), "\(bare.stdout)")
        }
    }
}
