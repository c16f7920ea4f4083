import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerHeaderListTests {
    /// Requests on one connection whose fields repeat, grow, shrink and change: each must see exactly
    /// its own fields, in order, whatever the request before it sent.
    @Test func eachRequestSeesItsOwnFieldsOnOneConnection() async throws {
        try await withTestServer(handler: Self.headerList) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", Self.client, String(server.port)])
            #expect(r.status == 0, "\(r.stderr)")
            let bodies = r.stdout.components(separatedBy: "----\n").dropLast()
            let expected = Self.requests.map { $0.map { "\($0.0): \($0.1)\n" }.joined() }
            #expect(Array(bodies) == expected)
        }
    }

    /// Answers with the request's header fields, one `name: value` per line.
    static let headerList = EventLoopAnswerHandler { request in
        .text(200, request.headers.map { "\($0.name): \($0.value)\n" }.joined())
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
        return H2cScript.open + """
            requests = [\(lists.joined(separator: ", "))]
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
