extension Connection {
    // MARK: CONNECT tunnels

    /// Judges a `CONNECT` and queues its answer: 200 and a tunnel, or the refusal and a close.
    /// Nothing after a `CONNECT` is read as HTTP/1.1 any more.
    func queueConnect(_ head: HTTP1RequestHead) {
        h1Closing = true
        var refusal: HTTPResponse?
        if let target = ConnectTunnel.authority(head.target), let tunnel = loop.configuration.connectTunnel {
            refusal = tunnel.decide(target.host, target.port)
        } else {
            let shown = head.target.count > 200 ? String(head.target.prefix(200)) + "…" : head.target
            refusal = .text(400, "CONNECT needs a target of the form host:port, not '\(shown)'\n")
        }
        if let refusal {
            h1Queue.append(HTTP1Exchange(seq: -1, isHead: false, keepAlive: false, closeAfter: true, response: refusal))
        } else {
            tunnelTarget = head.target
            h1Queue.append(
                HTTP1Exchange(
                    seq: -1, isHead: false, keepAlive: true, closeAfter: false, response: HTTPResponse(status: 200),
                    opensTunnel: true))
        }
    }

    /// Answers the accepted `CONNECT` and starts TLS inside the tunnel: the connection then serves
    /// whatever protocol ALPN or the first bytes choose, as on a TLS listener.
    func openTunnel() {
        // No content-length: RFC 9110 §9.3.6 forbids it on a 2xx answer to CONNECT.
        appendPlaintext(Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
        guard let context = loop.tunnelTLS, let session = TLSSession(context: context) else {
            lifecycle = .closeAfterFlush
            return
        }
        // Bytes the client sent right behind the CONNECT (an eager ClientHello) belong to TLS.
        let early = h1Parser.takeBufferedBytes()
        h1Parser = HTTP1Parser(
            maxHeaderBytes: loop.configuration.maxHeaderBytes, maxBodyBytes: loop.configuration.maxBodyBytes)
        h1Queue = []
        h1Closing = false
        tls = session
        info.isTLS = true
        info.tunnelAuthority = tunnelTarget
        mode = .detecting
        if !early.isEmpty { early.withUnsafeBytes { received($0) } }
    }
}
