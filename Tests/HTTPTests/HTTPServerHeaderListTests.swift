import HTTP
import TestSupport
import Testing

/// Answers on the event loop with the request's header fields, one `name: value` per line, so the
/// server's reuse of a previous request's header list can be checked from outside.
struct HeaderListHandler: HTTPImmediateHandler {
    func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        .text(200, request.headers.map { "\($0.name): \($0.value)\n" }.joined())
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { respondImmediately(to: request)! }
}

@Suite struct HTTPServerHeaderListTests {
    /// Requests on one connection whose fields repeat, grow, shrink and change: each must see exactly
    /// its own fields, in order, whatever the request before it sent.
    @Test func eachRequestSeesItsOwnFieldsOnOneConnection() async throws {
        try await withTestServer(handler: HeaderListHandler()) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", Self.client, String(server.port)])
            #expect(r.status == 0, "\(r.stderr)")
            let bodies = r.stdout.components(separatedBy: "----\n").dropLast()
            let expected = Self.requests.map { $0.map { "\($0.0): \($0.1)\n" }.joined() }
            #expect(Array(bodies) == expected)
        }
    }

    /// Header lists sent in this order on one connection.
    static let requests: [[(String, String)]] = [
        [("a", "1"), ("b", "2")],
        [("a", "1"), ("b", "2")],
        [("a", "1"), ("b", "2"), ("c", "3")],
        [("a", "1")],
        [("a", "1"), ("b", "2")],
        [("a", "1"), ("b", "changed")],
        [("x", "1"), ("b", "changed")],
        [],
        [("a", "1"), ("b", "2")],
        [("a", "1"), ("b", "2"), ("a", "1")],
    ]

    /// Sends `requests` one after the other on one h2c connection (prior knowledge) and prints each
    /// response body followed by `----`. Args: port.
    static var client: String {
        let lists = requests.map { list in "[" + list.map { "(\"\($0.0)\", \"\($0.1)\")" }.joined(separator: ", ") + "]"
        }
        return """
            import socket, sys
            import h2.connection, h2.config, h2.events
            requests = [\(lists.joined(separator: ", "))]
            sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
            conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
            conn.initiate_connection()
            sock.sendall(conn.data_to_send())
            for fields in requests:
                sid = conn.get_next_available_stream_id()
                head = [(":method", "GET"), (":path", "/"), (":scheme", "http"), (":authority", "localhost")]
                conn.send_headers(sid, head + fields, end_stream=True)
                sock.sendall(conn.data_to_send())
                body, done = b"", False
                while not done:
                    data = sock.recv(65536)
                    if not data:
                        sys.exit("connection closed")
                    for event in conn.receive_data(data):
                        if isinstance(event, h2.events.DataReceived) and event.stream_id == sid:
                            body += event.data
                            conn.acknowledge_received_data(event.flow_controlled_length, sid)
                        if isinstance(event, h2.events.StreamEnded) and event.stream_id == sid:
                            done = True
                    sock.sendall(conn.data_to_send())
                sys.stdout.write(body.decode() + "----\\n")
            """
    }
}
