/// A request head as `HTTP1Parser` needs it: the head, and how its body is framed.
struct HTTP1ParsedHead {
    var head: HTTP1RequestHead
    var contentLength: Int
    var chunked: Bool?
    var expectContinue: Bool
}

/// Parses one HTTP/1.x request head (the bytes up to and including its empty line) in named steps: the lines, the
/// request line, each header line, and what the framing headers say. Every error is a 400 with the reason.
enum HTTP1HeadParser {
    /// The head in `p`, or why it is malformed.
    static func parse(_ p: UnsafeBufferPointer<UInt8>) -> Result<HTTP1ParsedHead, HTTP1ParseError> {
        do throws(HTTP1ParseError) {
            let lines = lines(p)
            guard let requestLine = lines.first, !requestLine.isEmpty else { throw bad("empty request line") }
            let (method, target, minor) = try self.requestLine(p, requestLine)
            var fields = FramingFields()
            for line in lines.dropFirst() where !line.isEmpty {
                let (name, value) = try headerLine(p, line)
                try fields.note(name, value)
            }
            let (chunked, keepAlive) = try fields.framing(minorVersion: minor)
            let head = HTTP1RequestHead(
                method: method, target: target, minorVersion: minor, headers: fields.headers, keepAlive: keepAlive)
            return .success(
                HTTP1ParsedHead(
                    head: head, contentLength: fields.contentLength ?? 0, chunked: chunked,
                    expectContinue: fields.expectContinue))
        } catch {
            return .failure(error)
        }
    }

    static func bad(_ message: String) -> HTTP1ParseError { HTTP1ParseError(status: 400, message: message) }

    /// The head split into lines (without CR LF); the last line is empty.
    static func lines(_ p: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        for i in 0..<p.count where p[i] == UInt8(ascii: "\n") {
            let end = (i > start && p[i - 1] == UInt8(ascii: "\r")) ? i - 1 : i
            lines.append(start..<end)
            start = i + 1
        }
        return lines
    }

    /// `method SP target SP HTTP/1.x`: the method, the target and the minor version (0 or 1).
    static func requestLine(_ p: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTP1ParseError) -> (
        method: String, target: String, minor: Int
    ) {
        var sp1 = line.lowerBound
        while sp1 < line.upperBound && p[sp1] != UInt8(ascii: " ") {
            guard isTokenChar(p[sp1]) else { throw bad("bad method") }
            sp1 += 1
        }
        guard sp1 > line.lowerBound, sp1 < line.upperBound else { throw bad("malformed request line") }
        var sp2 = sp1 + 1
        while sp2 < line.upperBound && p[sp2] != UInt8(ascii: " ") {
            guard p[sp2] > 0x20 && p[sp2] != 0x7F else { throw bad("bad request target") }
            sp2 += 1
        }
        guard sp2 > sp1 + 1, sp2 < line.upperBound else { throw bad("malformed request line") }
        let versionRange = (sp2 + 1)..<line.upperBound
        guard versionRange.count == 8 else { throw bad("bad HTTP version") }
        let v = Array(p[versionRange])
        guard v[0..<7] == Array("HTTP/1.".utf8)[...] else { throw bad("bad HTTP version") }
        let minor: Int
        switch v[7] {
        case UInt8(ascii: "0"): minor = 0
        case UInt8(ascii: "1"): minor = 1
        default: throw bad("bad HTTP version")
        }
        let method = String(decoding: UnsafeBufferPointer(rebasing: p[line.lowerBound..<sp1]), as: UTF8.self)
        let target = String(decoding: UnsafeBufferPointer(rebasing: p[(sp1 + 1)..<sp2]), as: UTF8.self)
        return (method, target, minor)
    }

    /// `name: value` (no folding, a token name, no control character in the value): the name lowercased and the
    /// value without the whitespace around it.
    static func headerLine(_ p: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTP1ParseError) -> (
        name: String, value: String
    ) {
        if p[line.lowerBound] == UInt8(ascii: " ") || p[line.lowerBound] == UInt8(ascii: "\t") {
            throw bad("obsolete header line folding")
        }
        var colon = line.lowerBound
        while colon < line.upperBound && p[colon] != UInt8(ascii: ":") {
            guard isTokenChar(p[colon]) else { throw bad("bad header name") }
            colon += 1
        }
        guard colon < line.upperBound, colon > line.lowerBound else { throw bad("malformed header line") }
        var vs = colon + 1
        var ve = line.upperBound
        while vs < ve && (p[vs] == UInt8(ascii: " ") || p[vs] == UInt8(ascii: "\t")) { vs += 1 }
        while ve > vs && (p[ve - 1] == UInt8(ascii: " ") || p[ve - 1] == UInt8(ascii: "\t")) { ve -= 1 }
        for i in vs..<ve where (p[i] < 0x20 && p[i] != UInt8(ascii: "\t")) || p[i] == 0x7F {
            throw bad("control character in header value")
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: p[line.lowerBound..<colon]), as: UTF8.self)
            .lowercased()
        let value = String(decoding: UnsafeBufferPointer(rebasing: p[vs..<ve]), as: UTF8.self)
        return (name, value)
    }

    /// The header fields, and what the framing ones say, as the lines come.
    struct FramingFields {
        var headers = HTTPHeaders()
        var contentLength: Int?
        var transferEncodings: [String] = []
        var connectionTokens: [String] = []
        var expectContinue = false

        /// Adds one field; a bad or conflicting `content-length` is an error.
        mutating func note(_ name: String, _ value: String) throws(HTTP1ParseError) {
            switch name {
            case "content-length":
                guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    let n = Int(value)
                else { throw bad("bad content-length") }
                if let old = contentLength, old != n { throw bad("conflicting content-length") }
                contentLength = n
            case "transfer-encoding":
                transferEncodings += value.lowercased().split(separator: ",").map {
                    $0.trimmingCharacters(in: " \t")
                }
            case "connection":
                connectionTokens += value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
            case "expect":
                if value.lowercased() == "100-continue" { expectContinue = true }
            default:
                break
            }
            headers.add(name, value)
        }

        /// Whether the body is chunked (nil: no transfer-encoding) and whether the connection stays open, for
        /// HTTP/1.`minorVersion`.
        func framing(minorVersion minor: Int) throws(HTTP1ParseError) -> (chunked: Bool?, keepAlive: Bool) {
            var chunked: Bool? = nil
            if !transferEncodings.isEmpty {
                guard minor == 1 else { throw bad("transfer-encoding in HTTP/1.0") }
                guard contentLength == nil else { throw bad("both content-length and transfer-encoding") }
                guard transferEncodings.last == "chunked", transferEncodings.filter({ $0 == "chunked" }).count == 1
                else {
                    throw bad("unsupported transfer-encoding")
                }
                chunked = true
            }
            let keepAlive: Bool
            if connectionTokens.contains("close") {
                keepAlive = false
            } else if minor == 0 {
                keepAlive = connectionTokens.contains("keep-alive")
            } else {
                keepAlive = true
            }
            return (chunked, keepAlive)
        }
    }

    static func isTokenChar(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = self[...]
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
