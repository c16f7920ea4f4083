/// The head of an HTTP/1.x request: request line and header fields.
struct HTTP1RequestHead: Sendable, Equatable {
    var method: String
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var headers: HTTPHeaders
    /// Whether the connection stays open after this exchange (HTTP/1.1 default, `connection` header).
    var keepAlive: Bool
}

/// Why a request could not be parsed, with the status to answer before closing.
struct HTTP1ParseError: Error, Sendable, Equatable {
    /// 400 malformed, 413 body too large, 431 header block too large.
    var status: Int
    var message: String
}

/// What the parser found in the bytes fed so far.
enum HTTP1ParserEvent: Sendable, Equatable {
    /// A complete request, head and body.
    case request(HTTP1RequestHead, body: [UInt8])
    /// The client sent `expect: 100-continue` for a body it has not sent yet.
    case expectContinue
    /// The stream is unusable from here on: answer `status` and close.
    case error(HTTP1ParseError)
}

/// A pure HTTP/1.1 request parser: feed bytes with `append`, take events with `next()`.
///
/// It knows nothing of sockets. After an `.error` event it yields nothing more.
struct HTTP1Parser: Sendable {
    private enum State: Sendable {
        case head
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed
    }

    let maxHeaderBytes: Int
    let maxBodyBytes: Int

    private var state: State = .head
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Where the search for the end of the head resumes, so bytes are not rescanned.
    private var scanIndex = 0
    private var head: HTTP1RequestHead?
    private var body: [UInt8] = []
    private var trailerBytes = 0

    init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1024 * 1024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Bytes received but not yet consumed by a complete request.
    var bufferedByteCount: Int { buffer.count - readIndex }

    /// True when no partial request is pending (a good moment to close an idle connection).
    var isIdle: Bool {
        if case .head = state { return bufferedByteCount == 0 }
        return false
    }

    /// True while part of a request head has arrived and the rest has not.
    var isReadingHead: Bool {
        if case .head = state { return bufferedByteCount > 0 }
        return false
    }

    /// True once a request head is in and its body is not complete (an `.expectContinue` head included).
    var isReadingBody: Bool {
        switch state {
        case .body, .chunkSize, .chunkData, .chunkDataEnd, .trailers: return true
        case .head, .failed: return false
        }
    }

    /// Removes and returns the bytes received after the last complete request: what a client sent
    /// after `CONNECT` once the connection stops being HTTP/1.1.
    mutating func takeBufferedBytes() -> [UInt8] {
        let rest = Array(buffer[readIndex...])
        buffer = []
        readIndex = 0
        scanIndex = 0
        return rest
    }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if case .failed = state { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    private mutating func compactIfWorthwhile() {
        if readIndex > 0 && (readIndex == buffer.count || readIndex > 4096) {
            buffer.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }

    /// The next event the buffered bytes complete, or nil when more bytes are needed.
    mutating func next() -> HTTP1ParserEvent? {
        while true {
            switch state {
            case .failed:
                return nil
            case .head:
                return parseHead()
            case .body(let remaining):
                let available = buffer.count - readIndex
                let n = min(available, remaining)
                if n > 0 {
                    body.append(contentsOf: buffer[readIndex..<readIndex + n])
                    readIndex += n
                }
                if n == remaining { return finishRequest() }
                state = .body(remaining: remaining - n)
                return nil
            case .chunkSize:
                guard let lineEnd = findLineEnd(from: readIndex) else {
                    if buffer.count - readIndex > 1024 { return fail(400, "chunk size line too long") }
                    return nil
                }
                guard let size = parseChunkSize(readIndex, lineEnd.contentEnd) else {
                    return fail(400, "bad chunk size")
                }
                readIndex = lineEnd.next
                if size == 0 {
                    state = .trailers
                    trailerBytes = 0
                } else {
                    if body.count + size > maxBodyBytes { return fail(413, "request body too large") }
                    state = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let available = buffer.count - readIndex
                let n = min(available, remaining)
                if n > 0 {
                    body.append(contentsOf: buffer[readIndex..<readIndex + n])
                    readIndex += n
                }
                if n < remaining {
                    state = .chunkData(remaining: remaining - n)
                    return nil
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                guard buffer.count - readIndex >= 1 else { return nil }
                if buffer[readIndex] == UInt8(ascii: "\n") {
                    readIndex += 1
                } else {
                    guard buffer.count - readIndex >= 2 else { return nil }
                    guard buffer[readIndex] == UInt8(ascii: "\r"), buffer[readIndex + 1] == UInt8(ascii: "\n") else {
                        return fail(400, "chunk data not followed by CRLF")
                    }
                    readIndex += 2
                }
                state = .chunkSize
            case .trailers:
                guard let lineEnd = findLineEnd(from: readIndex) else {
                    if trailerBytes + buffer.count - readIndex > maxHeaderBytes {
                        return fail(431, "trailers too large")
                    }
                    return nil
                }
                let empty = lineEnd.contentEnd == readIndex
                trailerBytes += lineEnd.next - readIndex
                readIndex = lineEnd.next
                if trailerBytes > maxHeaderBytes { return fail(431, "trailers too large") }
                if empty { return finishRequest() }
            }
        }
    }

    private mutating func fail(_ status: Int, _ message: String) -> HTTP1ParserEvent {
        state = .failed
        buffer = []
        readIndex = 0
        scanIndex = 0
        body = []
        return .error(HTTP1ParseError(status: status, message: message))
    }

    private mutating func finishRequest() -> HTTP1ParserEvent {
        let h = head!
        let b = body
        head = nil
        body = []
        state = .head
        scanIndex = readIndex
        return .request(h, body: b)
    }

    // MARK: Head

    /// Returns the end of the line starting at `from`: index after the content (before CR LF) and after the LF.
    private func findLineEnd(from: Int) -> (contentEnd: Int, next: Int)? {
        buffer.withUnsafeBufferPointer { p -> (Int, Int)? in
            var i = from
            while i < p.count {
                if p[i] == UInt8(ascii: "\n") {
                    let contentEnd = (i > from && p[i - 1] == UInt8(ascii: "\r")) ? i - 1 : i
                    return (contentEnd, i + 1)
                }
                i += 1
            }
            return nil
        }
    }

    private mutating func parseHead() -> HTTP1ParserEvent? {
        // Ignore empty lines before a request line (RFC 9112 §2.2).
        while readIndex < buffer.count,
            buffer[readIndex] == UInt8(ascii: "\r") || buffer[readIndex] == UInt8(ascii: "\n")
        {
            readIndex += 1
        }
        if scanIndex < readIndex { scanIndex = readIndex }
        // Find an empty line: "\n\n" or "\n\r\n".
        let end: Int? = buffer.withUnsafeBufferPointer { p in
            var i = max(scanIndex, readIndex)
            while i < p.count {
                if p[i] == UInt8(ascii: "\n") {
                    guard i + 1 < p.count else { return nil }
                    if p[i + 1] == UInt8(ascii: "\n") { return i + 2 }
                    if p[i + 1] == UInt8(ascii: "\r") {
                        guard i + 2 < p.count else { return nil }
                        if p[i + 2] == UInt8(ascii: "\n") { return i + 3 }
                    }
                }
                i += 1
            }
            return nil
        }
        guard let headEnd = end else {
            // Resume a few bytes back so an empty line split across reads is still found.
            scanIndex = max(readIndex, buffer.count - 3)
            if buffer.count - readIndex > maxHeaderBytes { return fail(431, "request header block too large") }
            return nil
        }
        if headEnd - readIndex > maxHeaderBytes { return fail(431, "request header block too large") }
        let result = buffer.withUnsafeBufferPointer { p in
            HTTP1HeadParser.parse(UnsafeBufferPointer(rebasing: p[readIndex..<headEnd]))
        }
        readIndex = headEnd
        scanIndex = headEnd
        switch result {
        case .failure(let error):
            return fail(error.status, error.message)
        case .success(let parsed):
            head = parsed.head
            body = []
            if let chunked = parsed.chunked, chunked {
                state = .chunkSize
            } else if parsed.contentLength > 0 {
                if parsed.contentLength > maxBodyBytes { return fail(413, "request body too large") }
                body.reserveCapacity(parsed.contentLength)
                state = .body(remaining: parsed.contentLength)
            } else {
                return finishRequest()
            }
            if parsed.expectContinue && buffer.count == readIndex { return .expectContinue }
            return next()
        }
    }

    // MARK: Chunks

    /// Parses the hex chunk size in `buffer[from..<to]`, ignoring chunk extensions after `;`.
    private func parseChunkSize(_ from: Int, _ to: Int) -> Int? {
        var size = 0
        var digits = 0
        var i = from
        while i < to {
            let c = buffer[i]
            let d: Int
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = Int(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = Int(c - UInt8(ascii: "A") + 10)
            case UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"):
                return digits > 0 ? size : nil
            default:
                return nil
            }
            digits += 1
            if digits > 15 { return nil }
            size = size << 4 | d
            i += 1
        }
        return digits > 0 ? size : nil
    }
}
