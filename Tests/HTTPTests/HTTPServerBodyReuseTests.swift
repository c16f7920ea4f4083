import HTTP
import TestSupport
import Testing

@Suite struct HTTPServerBodyReuseTests {
    /// Bodies on one connection that repeat (in other chunks), shrink, grow, change midway and vanish,
    /// and two streams whose data interleave while the second ends with another body: each request
    /// must get exactly its own bytes, whatever the requests before and beside it sent.
    @Test func eachRequestGetsItsOwnBodyOnOneConnection() async throws {
        try await withTestServer(handler: Self.bodyEcho) { server in
            let r = try await runProcess("/usr/bin/python3", ["-c", Self.client, String(server.port)])
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == Self.sequential.count + 2)
            for line in lines {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                #expect(parts.count == 2 && parts[0] == "ok", "\(line)")
            }
        }
    }

    /// Answers with the request's body.
    static let bodyEcho = EventLoopAnswerHandler { HTTPResponse(status: 200, body: $0.body) }

    /// Request bodies as DATA chunks, sent one request after the other.
    static let sequential: [[String]] = [
        ["hello ", "world"],
        ["hello world"],
        ["hello ", "world"],
        ["hello"],
        ["hello world", "!!"],
        ["hello wor", "LD"],
        [],
        ["hello world"],
        ["", "hello world", ""],
        ["x"],
    ]

    /// Sends `sequential` on one h2c connection (prior knowledge), then two interleaved streams: the
    /// first starts the last body again and the second, sent whole in between, ends with another.
    /// Prints "ok <body>" for each echo equal to what was sent, "bad <sent> <got>" otherwise. Args: port.
    static var client: String {
        let lists = sequential.map { "[" + $0.map { "b\"\($0)\"" }.joined(separator: ", ") + "]" }
        return H2cScript.open + """
            sequential = [\(lists.joined(separator: ", "))]
            head = [(":method", "POST"), (":path", "/"), (":scheme", "http"), (":authority", "localhost")]
            bodies = {}
            def start(chunks_before_end):
                sid = conn.get_next_available_stream_id()
                conn.send_headers(sid, head)
                for c in chunks_before_end:
                    conn.send_data(sid, c)
                sock.sendall(conn.data_to_send())
                return sid
            def finish(sid, chunks):
                for c in chunks:
                    conn.send_data(sid, c)
                conn.end_stream(sid)
                sock.sendall(conn.data_to_send())
            def wait(sids):
                got = {s: b"" for s in sids}
                pending = set(sids)
                while pending:
                    data = sock.recv(65536)
                    if not data:
                        sys.exit("connection closed")
                    for event in conn.receive_data(data):
                        if isinstance(event, h2.events.DataReceived) and event.stream_id in got:
                            got[event.stream_id] += event.data
                            conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                        if isinstance(event, h2.events.StreamEnded):
                            pending.discard(event.stream_id)
                    sock.sendall(conn.data_to_send())
                return got
            def report(sent, got):
                print(("ok %r" % sent) if got == sent else ("bad %r %r" % (sent, got)))
            for chunks in sequential:
                sid = start(chunks)
                finish(sid, [])
                report(b"".join(chunks), wait([sid])[sid])
            last = b"".join(sequential[-1]) + b"yz"
            first = start([last[:1]])
            second = start([b"other"])
            finish(second, [b" body"])
            finish(first, [last[1:]])
            got = wait([first, second])
            report(last, got[first])
            report(b"other body", got[second])
            """
    }
}
