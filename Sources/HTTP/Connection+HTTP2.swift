import CLinux

extension Connection {
    // MARK: HTTP/2

    func startHTTP2() {
        mode = .http2
        let c = loop.configuration
        var maxStreams = c.initialMaxConcurrentStreams
        if !c.initialMaxConcurrentStreamsByServerName.isEmpty,
            let name = info.serverName ?? info.tunnelAuthority.flatMap({ ConnectTunnel.authority($0)?.host }),
            let n = c.initialMaxConcurrentStreamsByServerName[name.lowercased()]
        {
            maxStreams = n
        }
        h2 = HTTP2Session(
            maxConcurrentStreams: maxStreams, maxHeaderBytes: c.maxHeaderBytes,
            maxBodyBytes: c.maxBodyBytes)
        if h2 == nil { closeNow() }
        if shuttingDown { h2?.submitGoaway() }
    }

    func receiveHTTP2(_ bytes: UnsafeRawBufferPointer) {
        guard let h2 else { return }
        if !h2.receive(bytes) {
            // nghttp2 queued a GOAWAY for the protocol error when it could; send it and close.
            lifecycle = .closeAfterFlush
        }
        dispatchCompletedStreams()
    }

    private func dispatchCompletedStreams() {
        guard let h2, !h2.completed.isEmpty else { return }
        let done = h2.completed
        h2.completed = []
        for stream in done {
            if stream.headersTooLarge {
                h2.submitResponse(streamID: stream.id, .text(431, "request header block too large\n"))
            } else if stream.bodyTooLarge {
                h2.submitResponse(streamID: stream.id, .text(413, "request body too large\n"))
            } else {
                h2.markDispatched(stream)
                let request = HTTPRequest(
                    method: stream.method, target: stream.path, authority: stream.authority ?? stream.headers["host"],
                    headers: stream.headers, body: stream.body, version: .http2, connection: info,
                    streamID: stream.id, arrivalMs: rc_wall_ms())
                loop.dispatch(request, connectionID: info.id, token: Int64(stream.id))
            }
        }
    }

    func deliverHTTP2(streamID: Int32, _ response: HTTPResponse) {
        h2?.submitResponse(streamID: streamID, response)
    }

    /// Pulls frames out of nghttp2 while the output buffer has room; closes once the session is done.
    func serviceHTTP2() {
        guard let h2 else { return }
        dispatchCompletedStreams()
        let ok = h2.send { chunk in
            appendPlaintext(chunk)
            return pendingOutput < Self.outputHighWater
        }
        if !ok {
            closeNow()
            return
        }
        if h2.abortRequested {
            if case .open = lifecycle { lifecycle = .abortAfterFlush }
        } else if !h2.wantsRead && !h2.wantsWrite {
            if case .open = lifecycle { lifecycle = .closeAfterFlush }
        }
    }
}
