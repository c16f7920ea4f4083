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

    /// Trailers join their own request's fields; a request repeating that header block after it, or
    /// before it, has only the block's fields.
    @Test func trailersStayWithTheirRequest() async throws {
        try await withTestServer(handler: Self.headerList) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", Self.trailerClient, String(server.port)])
            #expect(r.status == 0, "\(r.stderr)")
            let bodies = r.stdout.components(separatedBy: "----\n").dropLast()
            #expect(Array(bodies) == ["a: 1\nb: 2\n", "a: 1\nb: 2\nt: 9\n", "a: 1\nb: 2\n", "a: 1\nb: 2\nt: 8\n"])
        }
    }

    /// Sends [a: 1, b: 2] four times on one h2c connection, the second and fourth with a body and a
    /// trailer (t: 9, then t: 8), printing each response body followed by `----`. Args: port.
    static var trailerClient: String {
        H2cScript.open + """
            for trailer in [None, "9", None, "8"]:
                sid = conn.get_next_available_stream_id()
                head = [(":method", "POST"), (":path", "/"), (":scheme", "http"), (":authority", "localhost")]
                conn.send_headers(sid, head + [("a", "1"), ("b", "2")], end_stream=trailer is None)
                if trailer is not None:
                    conn.send_data(sid, b"x")
                    conn.send_headers(sid, [("t", trailer)], end_stream=True)
                sock.sendall(conn.data_to_send())
                sys.stdout.write(read_stream(sid).decode() + "----\\n")
            """
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
                sys.stdout.write(read_stream(sid).decode() + "----\\n")
            """
    }
}
