import CLinux

/// One HTTP/1.1 request awaiting its turn to be answered (responses go out in request order).
struct HTTP1Exchange {
    var seq: Int64
    var isHead: Bool
    var keepAlive: Bool
    /// Set for parse errors: answer and close.
    var closeAfter: Bool
    var response: HTTPResponse?
    /// An accepted `CONNECT`: once its turn comes, answer 200 and start TLS inside the tunnel.
    var opensTunnel = false
}

extension Connection {
    // MARK: HTTP/1.1

    /// Reads requests out of the parser and writes the answers that are ready, in order.
    func serviceHTTP1() {
        defer { trackHTTP1Body() }
        while true {
            writeReadyHTTP1()
            if isClosed { return }
            if mode != .http1 {
                // A CONNECT tunnel opened: what follows is TLS, served on the next pass.
                loop.markDirty(self)
                return
            }
            guard !h1Closing, h1Queue.count < Self.maxQueuedHTTP1Requests, let event = h1Parser.next() else { return }
            // The head is in (or refused): the next one's deadline starts with its first byte.
            headDeadline = h1Parser.isReadingHead ? rc_monotonic_ms() + loop.headTimeoutMs : nil
            bodyDeadline = nil
            switch event {
            case .expectContinue:
                if h1Queue.isEmpty { appendPlaintext(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
            case .error(let error):
                refuseHTTP1(
                    HTTPResponse(
                        status: error.status, headers: ["content-type": "text/plain; charset=utf-8"],
                        body: Array((error.message + "\n").utf8)))
            // Inside a tunnel (TLS already) a CONNECT is an ordinary request for the handler.
            case .request(let head, _) where head.method == "CONNECT" && loop.tunnelTLS != nil && tls == nil:
                queueConnect(head)
            case .request(let head, let body):
                progressMs = lastActivity
                let seq = h1NextSeq
                h1NextSeq += 1
                let keepAlive = head.keepAlive && !shuttingDown
                if !keepAlive { h1Closing = true }
                h1Queue.append(
                    HTTP1Exchange(
                        seq: seq, isHead: head.method == "HEAD", keepAlive: keepAlive, closeAfter: false, response: nil)
                )
                var request = HTTPRequest(
                    method: head.method, target: head.target, authority: head.headers["host"], headers: head.headers,
                    body: body, version: .http1_1, origin: origin, streamID: nil,
                    arrivalMs: rc_wall_ms())
                request.arrivalOrder = ArrivalOrder.next()
                request.opensConnection = seq == 0
                loop.dispatch(request, connectionID: info.id, token: seq)
            }
        }
    }

    /// Starts the body's clocks once a head is in and its body is not; stops them when no body is read.
    private func trackHTTP1Body() {
        guard h1Parser.isReadingBody, !h1Closing else {
            bodyDeadline = nil
            return
        }
        guard bodyDeadline == nil else { return }
        let now = rc_monotonic_ms()
        bodyDeadline = now + loop.bodyTimeoutMs
        bodyReadDeadline = now + loop.bodyReadTimeoutMs
    }

    /// Answers 408 to a client whose request body is overdue, as nginx's `client_body_timeout` does, and
    /// closes. While earlier answers are pending the clocks start again: reading waits on the handler.
    func checkHTTP1BodyDeadline(now: Int64) {
        guard let deadline = bodyDeadline, now >= min(deadline, bodyReadDeadline), !h1Closing else { return }
        guard h1Queue.isEmpty else {
            bodyDeadline = now + loop.bodyTimeoutMs
            bodyReadDeadline = now + loop.bodyReadTimeoutMs
            return
        }
        let c = loop.configuration
        refuseHTTP1(
            .text(
                408,
                now >= deadline
                    ? "the request body did not arrive within \(c.requestBodyTimeoutSeconds) s\n"
                    : "no byte of the request body came for \(c.requestBodyReadTimeoutSeconds) s\n"))
    }

    /// Reads no more requests, answers `response` after the pending ones and closes.
    func refuseHTTP1(_ response: HTTPResponse) {
        h1Closing = true
        bodyDeadline = nil
        h1Queue.append(HTTP1Exchange(seq: -1, isHead: false, keepAlive: false, closeAfter: true, response: response))
        loop.markDirty(self)
    }

    func deliverHTTP1(seq: Int64, _ response: HTTPResponse) {
        guard let i = h1Queue.firstIndex(where: { $0.seq == seq }) else { return }
        h1Queue[i].response = response
    }

    private func writeReadyHTTP1() {
        while let first = h1Queue.first, let response = first.response {
            h1Queue.removeFirst()
            if first.opensTunnel {
                openTunnel()
                return
            }
            var closeAfter = first.closeAfter || !first.keepAlive
            var abortAfter = false
            switch response.directive {
            case .goawayAfterResponse: closeAfter = true
            case .resetAfterResponse: abortAfter = true
            case .resetWithoutResponse:
                abort()
                return
            case .none, .setMaxConcurrentStreams: break
            }
            if shuttingDown && h1Queue.isEmpty { closeAfter = true }
            let before = pendingOutput
            appendPlaintext(Self.serialize(response, isHead: first.isHead, close: closeAfter))
            if before > 0 && pendingOutput > loop.configuration.maxBufferedOutputBytes {
                abort()  // the client stopped reading while answers pile up
                return
            }
            if abortAfter || closeAfter {
                h1Closing = true
                h1Queue = []
                lifecycle = abortAfter ? .abortAfterFlush : .closeAfterFlush
                return
            }
        }
    }

    static func serialize(_ response: HTTPResponse, isHead: Bool, close: Bool) -> [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(128 + response.headers.count * 32 + (isHead ? 0 : response.body.count))
        b.append(contentsOf: "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n".utf8)
        for (name, value) in response.headers.fields {
            switch name {
            case "content-length", "transfer-encoding", "connection": continue
            default: break
            }
            b.append(contentsOf: name.utf8)
            b.append(contentsOf: ": ".utf8)
            b.append(contentsOf: value.utf8)
            b.append(contentsOf: "\r\n".utf8)
        }
        let noBody = response.status < 200 || response.status == 204 || response.status == 304
        if !noBody {
            b.append(contentsOf: "content-length: \(response.body.count)\r\n".utf8)
        }
        if close { b.append(contentsOf: "connection: close\r\n".utf8) }
        b.append(contentsOf: "\r\n".utf8)
        if !isHead && !noBody { b.append(contentsOf: response.body) }
        return b
    }
}

/// The standard reason phrase for a status code (HTTP/1.1 only; clients ignore it).
func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 100: return "Continue"
    case 200: return "OK"
    case 201: return "Created"
    case 202: return "Accepted"
    case 204: return "No Content"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 304: return "Not Modified"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 410: return "Gone"
    case 421: return "Misdirected Request"
    case 413: return "Content Too Large"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return "Status"
    }
}
