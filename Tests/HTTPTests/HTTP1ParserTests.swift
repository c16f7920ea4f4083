import Testing

@testable import HTTP

@Suite struct HTTP1ParserTests {
    private func events(_ parser: inout HTTP1Parser) -> [HTTP1ParserEvent] {
        var out: [HTTP1ParserEvent] = []
        while let e = parser.next() { out.append(e) }
        return out
    }

    private func parse(_ text: String, maxHeaderBytes: Int = 16384, maxBodyBytes: Int = 1 << 20) -> [HTTP1ParserEvent] {
        var p = HTTP1Parser(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes)
        p.append(Array(text.utf8))
        return events(&p)
    }

    private func request(_ e: HTTP1ParserEvent?) -> (HTTP1RequestHead, [UInt8])? {
        if case .request(let h, let b)? = e { return (h, b) }
        return nil
    }

    private func errorStatus(_ e: HTTP1ParserEvent?) -> Int? {
        if case .error(let err)? = e { return err.status }
        return nil
    }

    @Test func simpleGetKeepsAliveByDefault() throws {
        let ev = parse("GET /a?b=1 HTTP/1.1\r\nHost: example.com\r\nX-Thing:  v  \r\n\r\n")
        #expect(ev.count == 1)
        let (head, body) = try #require(request(ev.first))
        #expect(head.method == "GET")
        #expect(head.target == "/a?b=1")
        #expect(head.minorVersion == 1)
        #expect(head.keepAlive)
        #expect(head.headers["host"] == "example.com")
        #expect(head.headers["x-thing"] == "v")
        #expect(body.isEmpty)
    }

    @Test func connectionCloseAndHTTP10() throws {
        let a = try #require(request(parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").first))
        #expect(!a.0.keepAlive)
        let b = try #require(request(parse("GET / HTTP/1.0\r\n\r\n").first))
        #expect(!b.0.keepAlive)
        let c = try #require(request(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").first))
        #expect(c.0.keepAlive)
    }

    @Test func contentLengthBodyAcrossManyFeeds() throws {
        let text = "POST /x HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world"
        var p = HTTP1Parser()
        var got: [HTTP1ParserEvent] = []
        for byte in text.utf8 {
            p.append([byte])
            got += events(&p)
        }
        #expect(got.count == 1)
        let (head, body) = try #require(request(got.first))
        #expect(head.method == "POST")
        #expect(body.text == "hello world")
    }

    @Test func pipelinedRequestsComeOutInOrder() throws {
        let ev = parse(
            "GET /1 HTTP/1.1\r\n\r\nPOST /2 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /3 HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(ev.count == 3)
        #expect(request(ev[0])?.0.target == "/1")
        #expect(request(ev[1])?.1.text == "abc")
        #expect(request(ev[2])?.0.target == "/3")
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let ev = parse(
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n 012345678\r\n0\r\nX-Trailer: t\r\n\r\nGET /next HTTP/1.1\r\n\r\n"
        )
        #expect(ev.count == 2)
        #expect(request(ev[0])?.1.text == "hello 012345678")
        #expect(request(ev[1])?.0.target == "/next")
    }

    @Test func chunkedSplitAtEveryByte() throws {
        let text = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
        var p = HTTP1Parser()
        var got: [HTTP1ParserEvent] = []
        for byte in text.utf8 {
            p.append([byte])
            got += events(&p)
        }
        #expect(got.count == 1)
        #expect(request(got.first)?.1.text == "abcde")
    }

    @Test func badChunkEncodingIs400() {
        #expect(errorStatus(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").first) == 400)
        #expect(errorStatus(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY").first) == 400)
    }

    @Test func headerBlockLimitIs431() {
        let big = String(repeating: "a", count: 2000)
        #expect(errorStatus(parse("GET / HTTP/1.1\r\nX: \(big)\r\n\r\n", maxHeaderBytes: 1024).first) == 431)
        // Also without the terminating empty line yet: the buffer alone is already too big.
        #expect(errorStatus(parse("GET / HTTP/1.1\r\nX: \(big)", maxHeaderBytes: 1024).first) == 431)
    }

    @Test func bodyLimitIs413() {
        #expect(errorStatus(parse("POST / HTTP/1.1\r\nContent-Length: 2000\r\n\r\n", maxBodyBytes: 1000).first) == 413)
        let chunked =
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n300\r\n" + String(repeating: "x", count: 0x300)
            + "\r\n300\r\n"
        #expect(errorStatus(parse(chunked, maxBodyBytes: 1000).first) == 413)
    }

    @Test(arguments: [
        "GET\r\n\r\n",
        "GET / HTTP/2.0\r\n\r\n",
        "GET /  HTTP/1.1\r\n\r\n",
        "G(T / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\n folded: x\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        "GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n",
        "\u{16}\u{3}\u{1}\0\0garbage\r\n\r\n",
    ])
    func malformedIs400(_ text: String) {
        let ev = parse(text)
        #expect(errorStatus(ev.first) == 400, "\(text.debugDescription) gave \(ev)")
    }

    @Test func nothingAfterAnError() {
        var p = HTTP1Parser()
        p.append(Array("BROKEN\r\n\r\nGET / HTTP/1.1\r\n\r\n".utf8))
        #expect(errorStatus(p.next()) == 400)
        #expect(p.next() == nil)
        p.append(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(p.next() == nil)
    }

    @Test func expectContinueIsReported() {
        var p = HTTP1Parser()
        p.append(Array("PUT / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(p.next() == .expectContinue)
        #expect(p.next() == nil)
        p.append(Array("ok".utf8))
        #expect(request(p.next())?.1.text == "ok")
    }

    @Test func leadingEmptyLinesAreIgnored() {
        #expect(request(parse("\r\n\r\nGET / HTTP/1.1\r\n\r\n").first)?.0.target == "/")
    }
}
