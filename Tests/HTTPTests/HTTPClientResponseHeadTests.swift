import Testing

@testable import HTTP

@Suite struct HTTPClientResponseHeadTests {
    @Test func fieldsAreLowercasedTrimmedAndKeptInOrder() {
        var head = ClientResponseHead()
        for line in [
            "HTTP/1.1 200 OK\r\n", "Content-Type:  text/plain \r\n", "Set-Cookie: a=1\r\n", "set-cookie: b=2\r\n",
            "\r\n",
        ] {
            head.take(line: line)
        }
        #expect(
            head.headers == HTTPHeaders([("content-type", "text/plain"), ("set-cookie", "a=1"), ("set-cookie", "b=2")]))
    }

    @Test func aNewStatusLineStartsANewBlock() {
        var head = ClientResponseHead()
        for line in [
            "HTTP/1.1 100 Continue\r\n", "X-Early: 1\r\n", "\r\n", "HTTP/1.1 201 Created\r\n", "Location: /c/1\r\n",
        ] {
            head.take(line: line)
        }
        #expect(head.headers == HTTPHeaders([("location", "/c/1")]))
    }

    @Test func foldedLinesContinueThePreviousField() {
        var head = ClientResponseHead()
        for line in ["HTTP/2 200\r\n", "x-folded: one\r\n", "\t two\r\n", "x-next:\r\n"] { head.take(line: line) }
        #expect(head.headers == HTTPHeaders([("x-folded", "one two"), ("x-next", "")]))
    }
}
