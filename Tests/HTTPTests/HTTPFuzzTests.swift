import Foundation
import TestSupport
import Testing

@testable import HTTP

/// Bounded random-input tests (a fixed seed and a fixed number of inputs, seconds in CI) for the
/// HTTP/1.1 parser and the HTTP/2 session, directly and through a running server: nothing crashes,
/// every input ends in requests, an error status or a GOAWAY, and the server serves a good client after.
@Suite struct HTTPFuzzTests {
    /// Valid requests that mutations start from.
    static let http1Corpus: [String] = [
        "GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /v1/projects/p/messages:send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":[1,2]}",
        "POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\nTrailer: t\r\n\r\n",
        "PUT /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
        "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "HEAD / HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nConnection: close\r\n\r\n",
    ]

    static let maxBodyBytes = 4096

    /// Every event for `input` fed in pieces of the sizes `cuts` gives (whole when empty), with
    /// `expectContinue` left out (it depends on whether the body had arrived yet).
    static func events(_ input: [UInt8], cuts: [Int] = []) -> [HTTP1ParserEvent] {
        var parser = HTTP1Parser(maxHeaderBytes: 1024, maxBodyBytes: maxBodyBytes)
        var out: [HTTP1ParserEvent] = []
        var offset = 0
        var pieces = cuts.makeIterator()
        while offset < input.count {
            let n = min(input.count - offset, max(1, pieces.next() ?? input.count))
            parser.append(Array(input[offset..<offset + n]))
            offset += n
            while let e = parser.next() { out.append(e) }
        }
        return out.filter { $0 != .expectContinue }
    }

    @Test func http1ParserHandlesMutatedRequests() {
        var g = SeededGenerator(seed: 1)
        for request in Self.http1Corpus {
            let ev = Self.events(Array(request.utf8))
            #expect(!ev.isEmpty && !ev.contains { if case .error = $0 { true } else { false } }, "\(request)")
        }
        for i in 0..<3000 {
            let input = g.mutate(Array(Self.http1Corpus[i % Self.http1Corpus.count].utf8))
            let whole = Self.events(input)
            // Where the bytes are cut does not change what they mean.
            let cuts = (0..<64).map { _ in Int.random(in: 1...9, using: &g) }
            #expect(Self.events(input, cuts: cuts) == whole, "input \(i): \(input.text.debugDescription)")
            // At most one error, and nothing after it; errors are client errors with a message.
            let errors = whole.indices.filter { if case .error = whole[$0] { true } else { false } }
            #expect(errors.count <= 1 && errors.allSatisfy { $0 == whole.count - 1 }, "input \(i)")
            for event in whole {
                switch event {
                case .error(let e):
                    #expect([400, 413, 431, 501, 505].contains(e.status) && !e.message.isEmpty, "\(e)")
                case .request(let head, let body):
                    #expect(!head.method.isEmpty && !head.target.isEmpty && body.count <= Self.maxBodyBytes)
                case .expectContinue: break
                }
            }
        }
    }

    // MARK: HTTP/2

    /// A random frame after the preface: mostly well-formed requests and control frames with random
    /// fields, some of them mutated, some of unknown types.
    static func randomFrame(_ g: inout SeededGenerator, stream: inout UInt32) -> [UInt8] {
        let streamID = Bool.random(using: &g) ? stream : UInt32.random(in: 0...9, using: &g)
        switch Int.random(in: 0..<10, using: &g) {
        case 0, 1, 2:
            stream += 2
            let frame = H2Frames.request(stream: stream, path: "/fuzz/\(stream)")
            return Bool.random(using: &g) ? frame : g.mutate(frame)
        case 3:
            let settings = g.bytes(6 * Int.random(in: 0...3, using: &g))
            return H2Frames.frame(type: H2Frames.settings, flags: UInt8.random(in: 0...1, using: &g), settings)
        case 4: return H2Frames.frame(type: H2Frames.ping, flags: 0, g.bytes(Bool.random(using: &g) ? 8 : 5))
        case 5: return H2Frames.frame(type: H2Frames.windowUpdate, stream: streamID, g.bytes(4))
        case 6: return H2Frames.frame(type: H2Frames.rstStream, stream: streamID, g.bytes(4))
        case 7:
            return H2Frames.frame(
                type: H2Frames.data, flags: UInt8.random(in: 0...1, using: &g), stream: streamID,
                g.bytes(Int.random(in: 0...40, using: &g)))
        default:
            return H2Frames.frame(
                type: UInt8.random(in: 0...0x20, using: &g), flags: UInt8.random(in: 0...255, using: &g),
                stream: streamID, g.bytes(Int.random(in: 0...24, using: &g)))
        }
    }

    /// The GOAWAY error code in `frames`' bytes, if the server sent one.
    static func goawayCode(_ bytes: [UInt8]) -> UInt32? { H2Frames.goaway(in: bytes)?.code }

    @Test func http2SessionHandlesRandomFrames() throws {
        var g = SeededGenerator(seed: 2)
        // Inputs the session refused with an error GOAWAY, and requests it answered: the
        // random frames must reach both.
        var refused = 0
        var answered = 0
        for i in 0..<1500 {
            let session = try #require(HTTP2Session(maxConcurrentStreams: 8, maxHeaderBytes: 1024, maxBodyBytes: 4096))
            var input = H2Frames.clientStart
            var stream: UInt32 = 1
            for _ in 0..<Int.random(in: 1...8, using: &g) { input += Self.randomFrame(&g, stream: &stream) }
            var output: [UInt8] = []
            var ok = true
            var offset = 0
            while ok && offset < input.count {
                let n = min(input.count - offset, Int.random(in: 1...64, using: &g))
                ok = input[offset..<offset + n].withUnsafeBytes { session.receive($0) }
                offset += n
                for s in session.completed where !s.dispatched {
                    answered += 1
                    session.markDispatched(s)
                    _ = session.submitResponse(streamID: s.id, .text(200, "ok\n"))
                }
                session.completed.removeAll()
                let sent = session.send { chunk in
                    output += chunk
                    return true
                }
                #expect(sent, "input \(i): send failed")
            }
            // The server's bytes are whole frames, SETTINGS first; a refused input ends in GOAWAY.
            let frames = H2Frames.frames(in: output)
            #expect(frames.first?.type == H2Frames.settings, "input \(i)")
            if let code = Self.goawayCode(output), code != 0 { refused += 1 }
            if !ok {
                let code = Self.goawayCode(output)
                #expect(
                    code.map { (1...0xd).contains($0) } == true,
                    "input \(i): closed with GOAWAY \(String(describing: code))")
            }
        }
        #expect(refused > 100 && answered > 100, "refused \(refused), answered \(answered)")
    }

    // MARK: Through the server

    /// Sends each input on its own connection and collects what came back and whether the server ended it.
    static func blast(_ port: Int, _ inputs: [[UInt8]]) throws -> [(bytes: [UInt8], ended: Bool)] {
        let sockets = try inputs.map { input -> RawSocket in
            let s = try RawSocket(port: port, receiveTimeout: 20)
            s.send(input)
            return s
        }
        return sockets.map {
            let r = $0.receive()
            return (r.bytes, r.closed || r.reset)
        }
    }

    static func fuzzServer(_ c: inout HTTPServer.Configuration) {
        c.idleTimeoutSeconds = 0.5
        c.requestHeadTimeoutSeconds = 1
        c.maxHeaderBytes = 1024
        c.maxBodyBytes = 4096
    }

    /// A good request after the fuzzing, on a new connection.
    static func stillServes(_ port: Int) throws -> String {
        let s = try RawSocket(port: port)
        s.send("GET /status?code=204 HTTP/1.1\r\nhost: x\r\n\r\n")
        return s.receive { $0.text.hasSuffix("\r\n\r\n") }.bytes.text
    }

    @Test func serverAnswersMutatedHTTP1Requests() async throws {
        try await withTestServer(configure: Self.fuzzServer) { server in
            let port = server.port
            let (replies, after) = try await offPool { () -> ([(bytes: [UInt8], ended: Bool)], String) in
                var g = SeededGenerator(seed: 3)
                let inputs = (0..<200).map { g.mutate(Array(Self.http1Corpus[$0 % Self.http1Corpus.count].utf8)) }
                return (try Self.blast(port, inputs), try Self.stillServes(port))
            }
            for (i, reply) in replies.enumerated() {
                // Ended by the server (answer, error or timeout), and whatever came back is HTTP/1.1 responses.
                #expect(reply.ended, "input \(i) left open")
                if !reply.bytes.isEmpty {
                    let text = reply.bytes.text
                    #expect(
                        text.hasPrefix("HTTP/1.1 1") || text.hasPrefix("HTTP/1.1 2") || text.hasPrefix("HTTP/1.1 4"),
                        "input \(i): \(text.prefix(40))")
                }
            }
            #expect(after.hasPrefix("HTTP/1.1 204"), "\(after)")
        }
    }

    @Test func serverAnswersRandomHTTP2Frames() async throws {
        try await withTestServer(configure: Self.fuzzServer) { server in
            let port = server.port
            let (replies, after) = try await offPool { () -> ([(bytes: [UInt8], ended: Bool)], String) in
                var g = SeededGenerator(seed: 4)
                let inputs = (0..<150).map { _ -> [UInt8] in
                    var input = H2Frames.clientStart
                    var stream: UInt32 = 1
                    for _ in 0..<Int.random(in: 1...6, using: &g) { input += Self.randomFrame(&g, stream: &stream) }
                    return input
                }
                return (try Self.blast(port, inputs), try Self.stillServes(port))
            }
            for (i, reply) in replies.enumerated() {
                // Every connection ends (a GOAWAY for errors, or after the idle timeout), after a GOAWAY
                // whose code is an HTTP/2 error code.
                #expect(reply.ended, "input \(i) left open")
                #expect(H2Frames.frames(in: reply.bytes).first?.type == H2Frames.settings, "input \(i)")
                let code = Self.goawayCode(reply.bytes)
                #expect(code.map { $0 <= 0xd } == true, "input \(i): GOAWAY \(String(describing: code))")
            }
            #expect(after.hasPrefix("HTTP/1.1 204"), "\(after)")
        }
    }
}
