import Foundation
import HTTP

/// Servers independent of ringcheck for testing `HTTPClient`: nghttpd for HTTP/2 (TLS and h2c) and a
/// python `http.server` script for HTTP/1.1 behaviours.
public enum ClientTestServers {
    /// nghttpd serving `index.html` ("hello h2") and echoing POST/PUT bodies. With `certificates` it
    /// speaks TLS with ALPN h2; without, h2c with prior knowledge.
    public static func nghttpd(certificates: OpenSSLTestCertificates?, in directory: TemporaryDirectory) throws
        -> ClientTestPeer
    {
        let docs = directory.file("htdocs")
        try FileManager.default.createDirectory(atPath: docs, withIntermediateDirectories: true)
        try "hello h2".write(toFile: docs + "/index.html", atomically: true, encoding: .utf8)
        let port = ClientTestPeer.freePort()
        var arguments = ["--echo-upload", "-a", "127.0.0.1", "-d", docs]
        if let certificates {
            arguments += [String(port), certificates.keyFile, certificates.certFile]
        } else {
            arguments += ["--no-tls", String(port)]
        }
        return try ClientTestPeer(
            "/usr/sbin/nghttpd", arguments, port: port, scheme: certificates == nil ? "http" : "https")
    }

    /// `nghttpd(certificates:in:)` started off the cooperative pool: use it from async tests.
    public static func nghttpdAsync(certificates: OpenSSLTestCertificates?, in directory: TemporaryDirectory)
        async throws -> ClientTestPeer
    {
        try await offPool { try nghttpd(certificates: certificates, in: directory) }
    }

    /// nghttpd over TLS with the shared test certificates, and a client that trusts their CA; the client
    /// is shut down and the server stopped once `body` returns or throws.
    public static func withTLSNghttpd<T: Sendable>(_ body: (ClientTestPeer, HTTPClient) async throws -> T)
        async throws -> T
    {
        let dir = TemporaryDirectory()
        let certs = try await ServerTestCertificates.get()
        let server = try await nghttpdAsync(certificates: certs, in: dir)
        defer { server.stop() }
        let client = try HTTPClient(configuration: .init(caFile: certs.caFile))
        defer { client.shutdown() }
        return try await body(server, client)
    }

    /// `python(in:certificates:)` started off the cooperative pool: use it from async tests.
    public static func pythonAsync(in directory: TemporaryDirectory, certificates: OpenSSLTestCertificates? = nil)
        async throws -> ClientTestPeer
    {
        try await offPool { try python(in: directory, certificates: certificates) }
    }

    /// An HTTP/1.1 keep-alive server (python's ThreadingHTTPServer) on an ephemeral port:
    /// - `/` → 200 `ok`
    /// - `/status/NNN` → status NNN, `x-test: yes`, two `set-cookie` fields, body `status NNN`
    /// - `/echo` → 200 with the request body, `x-method` and `x-content-type` of the request
    /// - `/slow?ms=N` → 200 `slow` after N ms
    /// - `/reset` → the connection is reset (RST) without a response
    /// - `/chunked` → 200 with a chunked body `alpha-beta-gamma`
    /// - `/folded` → 200 with an obs-folded header `x-folded: one two`
    ///
    /// With `certificates` it speaks TLS and offers only `http/1.1` through ALPN.
    public static func python(in directory: TemporaryDirectory, certificates: OpenSSLTestCertificates? = nil) throws
        -> ClientTestPeer
    {
        let script = try directory.write("client_test_server.py", pythonServer)
        var arguments = ["-u", script]
        if let certificates { arguments += [certificates.certFile, certificates.keyFile] }
        return try ClientTestPeer(
            "/usr/bin/python3", arguments, port: nil, scheme: certificates == nil ? "http" : "https")
    }

    static let pythonServer = #"""
        import socket, struct, sys, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse, parse_qs

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status, body, headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def dispatch(self):
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if url.path.startswith("/status/"):
                    code = int(url.path.split("/")[2])
                    self.answer(code, b"status %d" % code,
                                [("X-Test", "yes"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
                elif url.path == "/echo":
                    self.answer(200, body, [("X-Method", self.command),
                                            ("X-Content-Type", self.headers.get("Content-Type") or "")])
                elif url.path == "/slow":
                    ms = int(parse_qs(url.query).get("ms", ["1000"])[0])
                    time.sleep(ms / 1000)
                    self.answer(200, b"slow")
                elif url.path == "/reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                    self.close_connection = True
                elif url.path == "/chunked":
                    self.send_response(200)
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for part in (b"alpha-", b"beta-", b"gamma"):
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                    self.wfile.write(b"0\r\n\r\n")
                elif url.path == "/folded":
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Folded: one\r\n two\r\nContent-Length: 2\r\n\r\nok")
                else:
                    self.answer(200, b"ok")

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = do_PATCH = dispatch

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 128
            def handle_error(self, request, client_address):
                pass

        server = Server(("127.0.0.1", 0), Handler)
        if len(sys.argv) == 3:
            import ssl
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            context.set_alpn_protocols(["http/1.1"])
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print("PORT %d" % server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
