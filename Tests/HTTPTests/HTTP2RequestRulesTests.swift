import TestSupport
import Testing

@testable import HTTP

/// The HTTP/2 session checks requests against HTTP/2's rules itself (nghttp2's HTTP messaging is off):
/// it must judge every request as nghttp2 1.52 would, however its fields repeat from one request to the
/// next on a connection (it judges a field repeated byte for byte once).
@Suite(.cpuBound) struct HTTP2RequestRulesTests {
    /// Random connections of requests, many breaking HTTP/2's rules (bad bytes, pseudo-headers missing,
    /// repeated, late or in trailers, connection-specific fields, content-length against the body,
    /// trailers not ending the stream, …) and many repeating the request before them, fed in random
    /// pieces to two sessions: one checking requests itself, one leaving it to nghttp2. Both must hand
    /// on the same requests and send the same bytes back.
    @Test func judgesRequestsAsNghttp2Does() throws {
        var random = SeededGenerator(seed: 0x6832_6368_6563_6B)
        var resets = 0
        var requests = 0
        for connection in 0..<400 {
            let script = RequestScript.connection(&random)
            let pieces = RequestScript.pieces(of: script.bytes, &random)
            let own = try Self.run(pieces, nghttp2Checks: false)
            let nghttp2 = try Self.run(pieces, nghttp2Checks: true)
            #expect(own == nghttp2, "connection \(connection):\n\(script.description)")
            if own != nghttp2 { break }
            resets += own.filter { $0.hasPrefix("frame 3 ") }.count
            requests += own.filter { $0.hasPrefix("request ") }.count
        }
        // The random requests reach both outcomes often.
        #expect(resets > 1000 && requests > 1000, "\(resets) resets, \(requests) requests")
    }

    /// What a session does with `pieces` of a client's bytes: the requests it completes (each answered
    /// 200) and the frames it sends, in order.
    static func run(_ pieces: [[UInt8]], nghttp2Checks: Bool) throws -> [String] {
        let session = try #require(
            HTTP2Session(
                maxConcurrentStreams: 1000, maxHeaderBytes: 600, maxBodyBytes: 6, nghttp2ChecksRequests: nghttp2Checks))
        var log: [String] = []
        for piece in pieces {
            log.append("piece")
            let ok = piece.withUnsafeBytes { session.receive($0) }
            for stream in session.completed {
                let fields = stream.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
                log.append(
                    "request \(stream.id) \(stream.method) \(stream.path) \(stream.authority ?? "-") [\(fields)] "
                        + "\(stream.body) \(stream.headersTooLarge) \(stream.bodyTooLarge)")
                session.markDispatched(stream)
                session.submitResponse(streamID: stream.id, .text(200, "ok\n"))
            }
            session.completed.removeAll()
            var out: [UInt8] = []
            let sent = session.send {
                out.append(contentsOf: $0)
                return true
            }
            log += Self.frames(out)
            if !ok || !sent {
                log.append("connection error")
                break
            }
        }
        return log
    }

    /// Each frame in `bytes` as "frame type flags stream payload".
    static func frames(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var i = 0
        while i + 9 <= bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            let stream = bytes[i + 5..<i + 9].reduce(0) { $0 << 8 | Int($1) } & 0x7FFF_FFFF
            let payload = bytes[i + 9..<min(bytes.count, i + 9 + n)].map { String($0, radix: 16) }.joined()
            out.append("frame \(bytes[i + 3]) \(bytes[i + 4]) \(stream) \(payload)")
            i += 9 + n
        }
        return out
    }
}

/// A random connection's worth of requests as a client's bytes.
struct RequestScript {
    var bytes: [UInt8]
    var description: String

    typealias Field = (name: String, value: String)

    /// Values tried for each name; a field takes one at random.
    static let vocabulary: [(name: String, values: [String])] = [
        (":method", ["GET", "POST", "HEAD", "CONNECT", "OPTIONS", "", "G T", "get", "P\u{1}", " GET"]),
        (":scheme", ["https", "http", "HTTPS", "Http", "", "h2c", "1x", "ht tp", "a+b.c-d", "é"]),
        (":path", ["/", "/a", "/3/device/abc", "*", "a", "", "/a b", "/\t", "/\u{7F}", "/é", "?x", " /", "**"]),
        (":authority", ["x", "", "a b", "x:443", "[::1]:8", "é", "a/b", "user@h", " x", "a{b"]),
        (":protocol", ["websocket"]), (":status", ["200"]), (":", ["x"]), (":foo", ["bar"]), (":Path", ["/"]),
        ("host", ["x", "", "a b", "x:1", "a|b"]),
        (
            "content-length",
            ["0", "1", "3", "5", "", "x", "03", " 3", "3 ", "+3", "99999999999999999999", "9223372036854775807"]
        ),
        ("te", ["trailers", "TRAILERS", "Trailers", "gzip", "", "trailers ", "trailers, gzip"]),
        ("connection", ["close"]), ("keep-alive", ["1"]), ("proxy-connection", ["x"]),
        ("transfer-encoding", ["chunked"]), ("upgrade", ["h2c"]), ("priority", ["u=1", "bad"]),
        ("a", ["v", "", " v", "v ", "\tv", "v\t", "a\u{0}b", "a\rb", "a\nb", "a\u{1}b", "a\u{7F}b", "é", "a b", "\t"]),
        ("apns-topic", ["t", "u"]), ("A", ["v"]), ("a b", ["v"]), ("", ["v"]), ("a:b", ["v"]), ("é", ["v"]),
        ("x-\u{1}", ["v"]), ("x\"", ["v"]), ("~!#$%&'*+-.^_`|", ["v"]),
    ]

    static func randomField(_ random: inout SeededGenerator) -> Field {
        let entry = vocabulary.randomElement(using: &random)!
        return (entry.name, entry.values.randomElement(using: &random)!)
    }

    /// A request the rules accept: mostly like a push (a long field like a provider token), now and
    /// then pseudo-headers only, named by host instead of `:authority`, or a CONNECT.
    static func valid(_ random: inout SeededGenerator) -> [Field] {
        let regular: [Field] = [
            ("authorization", "bearer " + String(repeating: "eyJhbGciOiJFUzI1NiJ9", count: 10)), ("apns-topic", "t"),
        ]
        let path: Field = (":path", "/3/device/\(Int.random(in: 0..<1000, using: &random))")
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return [(":method", "CONNECT"), (":authority", "x")]
        case 1: return [(":method", "CONNECT"), (":authority", "x")] + regular
        case 2: return [(":method", "GET"), (":scheme", "https"), path, (":authority", "x")]
        case 3: return [(":method", "POST"), (":scheme", "https"), path, ("host", "x")] + regular
        default:
            return [
                (":method", Bool.random(using: &random) ? "POST" : "GET"), (":scheme", "https"), path,
                (":authority", "x"),
            ]
                + regular
        }
    }

    /// `fields` with one to three random changes.
    static func mutate(_ fields: [Field], _ random: inout SeededGenerator) -> [Field] {
        var f = fields
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0...f.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: f.insert(randomField(&random), at: at)
            case 1 where at < f.count: f.remove(at: at)
            case 2 where at < f.count: f.insert(f[at], at: Int.random(in: 0...f.count, using: &random))
            case 3 where at < f.count:
                // Same name, another value: the field judged anew from its value alone.
                let values = vocabulary.first { $0.name == f[at].name }?.values ?? ["changed"]
                f[at].value = values.randomElement(using: &random)!
            case 4 where f.count > 1: f.swapAt(at % f.count, Int.random(in: 0..<f.count, using: &random))
            default: break
            }
        }
        return f
    }

    /// One to 30 requests on a fresh connection, after the client preface.
    static func connection(_ random: inout SeededGenerator) -> RequestScript {
        var script = RequestScript(bytes: H2Frames.clientStart, description: "")
        var previous = valid(&random)
        for i in 0..<Int.random(in: 1...30, using: &random) {
            var fields: [Field]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: fields = previous  // byte for byte the request before
            case 4..<6: fields = valid(&random)
            default: fields = mutate(Bool.random(using: &random) ? previous : valid(&random), &random)
            }
            previous = fields
            var body: [[UInt8]] = []
            for _ in 0..<[0, 0, 1, 1, 2, 3].randomElement(using: &random)! {
                body.append(Array("abcd".utf8.prefix(Int.random(in: 0...4, using: &random))))
            }
            let length = body.reduce(0) { $0 + $1.count }
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: fields.append(("content-length", String(length)))
            case 2: fields.append(("content-length", String(max(0, length + Int.random(in: -2...2, using: &random)))))
            default: break
            }
            var trailers: [Field]?
            if Int.random(in: 0..<5, using: &random) == 0 {
                trailers = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0, 1: return randomField(&random)
                    case 2: return [(":path", "/"), (":scheme", "https"), ("host", "x")].randomElement(using: &random)!
                    case 3: return ("content-length", String(Int.random(in: 0...5, using: &random)))
                    default: return ("t", "9")
                    }
                }
            }
            let trailersEnd = Int.random(in: 0..<5, using: &random) != 0
            script.add(
                stream: UInt32(1 + 2 * i), fields, body: body, trailers: trailers, trailersEnd: trailersEnd, &random)
        }
        return script
    }

    mutating func add(
        stream: UInt32, _ fields: [Field], body: [[UInt8]], trailers: [Field]?, trailersEnd: Bool,
        _ random: inout SeededGenerator
    ) {
        // Now and then the body's last DATA does not end the stream, and nothing else does.
        let leaveOpen = !body.isEmpty && Int.random(in: 0..<10, using: &random) == 0
        description += "stream \(stream): \(fields.map { "\($0.name)=\($0.value)" }) body \(body)"
        description += " trailers \(trailers.map { $0.map { "\($0.name)=\($0.value)" } } ?? []) end \(trailersEnd)\n"
        let endStream: UInt8 = 0x1
        headerBlock(
            stream: stream, fields, endStream: body.isEmpty && trailers == nil ? endStream : 0, &random)
        for (i, chunk) in body.enumerated() {
            let last = i == body.count - 1 && trailers == nil && !leaveOpen
            bytes += H2Frames.frame(type: H2Frames.data, flags: last ? endStream : 0, stream: stream, chunk)
        }
        if let trailers { headerBlock(stream: stream, trailers, endStream: trailersEnd ? endStream : 0, &random) }
    }

    /// A HEADERS frame, split into HEADERS and CONTINUATION now and then.
    mutating func headerBlock(stream: UInt32, _ fields: [Field], endStream: UInt8, _ random: inout SeededGenerator) {
        let block = fields.flatMap { H2Frames.literalField(Array($0.name.utf8), Array($0.value.utf8)) }
        if block.count > 2 && Bool.random(using: &random) {
            let cut = Int.random(in: 1..<block.count, using: &random)
            bytes += H2Frames.frame(type: H2Frames.headers, flags: endStream, stream: stream, Array(block[..<cut]))
            bytes += H2Frames.frame(type: H2Frames.continuation, flags: 0x4, stream: stream, Array(block[cut...]))
        } else {
            bytes += H2Frames.frame(type: H2Frames.headers, flags: endStream | 0x4, stream: stream, block)
        }
    }

    /// `bytes` cut at a few random places (the session must judge the same whatever the reads).
    static func pieces(of bytes: [UInt8], _ random: inout SeededGenerator) -> [[UInt8]] {
        var cuts = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            Int.random(in: 0...bytes.count, using: &random)
        }
        cuts = [0] + cuts.sorted() + [bytes.count]
        return zip(cuts, cuts.dropFirst()).map { Array(bytes[$0..<$1]) }
    }
}
