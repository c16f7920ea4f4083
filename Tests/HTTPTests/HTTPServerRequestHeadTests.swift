import HTTP
import Synchronization
import TestSupport
import Testing

@Suite struct HTTPServerRequestHeadTests {
    /// Requests on one connection that repeat the one before, or differ from it in one field, then the
    /// last again on a second connection: every request carries its own fields, stream and connection.
    @Test func eachRequestCarriesItsOwnFields() async throws {
        let seen = Mutex<[HTTPRequest]>([])
        let handler = EventLoopAnswerHandler { request in
            seen.withLock { $0.append(request) }
            return HTTPResponse(status: 204)
        }
        try await withTestServer(handler: handler) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", Self.client, String(server.port)])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let requests = seen.withLock { $0 }
        let sent = Self.requests + [Self.requests[Self.requests.count - 1]]
        try #require(requests.count == sent.count)
        for (i, (request, expected)) in zip(requests, sent).enumerated() {
            #expect(request.method == expected.method, "request \(i)")
            #expect(request.target == expected.path, "request \(i)")
            #expect(request.authority == expected.authority, "request \(i)")
            #expect(
                request.headers.fields.map { "\($0.name): \($0.value)" } == expected.fields.map { "\($0.0): \($0.1)" },
                "request \(i)")
            #expect(request.body == Array(expected.body.utf8), "request \(i)")
            guard i > 0 else { continue }
            #expect(request.streamID != requests[i - 1].streamID || i == Self.requests.count, "request \(i)")
        }
        #expect(requests.last?.connectionID != requests.first?.connectionID)
    }

    /// A request is a value: changing a field of a copy does not change the original, though they
    /// shared their fields until then.
    @Test func changingACopyLeavesTheOriginal() {
        let original = HTTPRequest(
            method: "POST", target: "/a", authority: "h", headers: ["a": "1"], body: [1],
            connection: ConnectionInfo(id: 1, remoteAddress: "127.0.0.1:1", localPort: 2, isTLS: false),
            streamID: 1, arrivalMs: 5)
        var copy = original
        copy.streamID = 3
        copy.arrivalMs = 6
        copy.method = "PUT"
        copy.target = "/b"
        copy.authority = nil
        copy.headers.add("b", "2")
        copy.body.append(2)
        copy.version = .http1_1
        copy.connection.id = 9
        #expect(original.method == "POST" && original.target == "/a" && original.authority == "h")
        #expect(original.headers == ["a": "1"] && original.body == [1] && original.version == .http2)
        #expect(original.connectionID == 1 && original.streamID == 1 && original.arrivalMs == 5)
        #expect(copy.method == "PUT" && copy.target == "/b" && copy.authority == nil)
        #expect(copy.headers == ["a": "1", "b": "2"] && copy.body == [1, 2] && copy.version == .http1_1)
        #expect(copy.connectionID == 9 && copy.streamID == 3 && copy.arrivalMs == 6)
    }

    struct Sent {
        var method = "POST"
        var path = "/a"
        var authority = "localhost"
        var fields = [("a", "1"), ("b", "2")]
        var body = "payload"
    }

    /// Sent in this order on the first connection; the last is sent again on a second one.
    static let requests: [Sent] = [
        Sent(),
        Sent(),
        Sent(),
        Sent(path: "/b"),
        Sent(path: "/b"),
        Sent(path: "/b", authority: "other"),
        Sent(path: "/b", authority: "other"),
        Sent(path: "/b", authority: "other", fields: [("a", "1"), ("b", "3")]),
        Sent(path: "/b", authority: "other", fields: [("a", "1"), ("b", "3")], body: "payloaX"),
        Sent(path: "/b", authority: "other", fields: [("a", "1"), ("b", "3")], body: "payloaX"),
        Sent(method: "PUT", path: "/b", authority: "other", fields: [("a", "1"), ("b", "3")], body: "payloaX"),
        Sent(method: "PUT", path: "/b", authority: "other", fields: [("a", "1"), ("b", "3")], body: ""),
        Sent(
            method: "PUT", path: "/b", authority: "other", fields: [("a", "1"), ("b", "3")], body: ""),
    ]

    /// Sends `requests` one after the other on one h2c connection (prior knowledge), each answered
    /// before the next, then the last on a new connection. Args: port.
    static var client: String {
        let list = requests.map { r in
            let fields = r.fields.map { "(\"\($0.0)\", \"\($0.1)\")" }
            return
                "(\"\(r.method)\", \"\(r.path)\", \"\(r.authority)\", [\(fields.joined(separator: ", "))], b\"\(r.body)\")"
        }
        return H2cScript.open + """
            requests = [\(list.joined(separator: ", "))]
            def send(method, path, authority, fields, body):
                sid = conn.get_next_available_stream_id()
                head = [(":method", method), (":path", path), (":scheme", "http"), (":authority", authority)]
                conn.send_headers(sid, head + fields, end_stream=not body)
                if body:
                    conn.send_data(sid, body, end_stream=True)
                sock.sendall(conn.data_to_send())
                read_stream(sid)
            for r in requests:
                send(*r)
            sock.close()
            sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
            conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
            conn.initiate_connection()
            sock.sendall(conn.data_to_send())
            send(*requests[-1])
            """
    }
}
