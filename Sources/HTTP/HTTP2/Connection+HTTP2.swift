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
        h2?.presence = presence
        h2?.bodyTimeoutMs = loop.bodyTimeoutMs
        h2?.bodyReadTimeoutMs = loop.bodyReadTimeoutMs
        if h2 == nil { closeNow() }
        if shuttingDown { h2?.submitGoaway() }
    }

    func receiveHTTP2(_ bytes: UnsafeRawBufferPointer) {
        guard let h2 else { return }
        // The preface is the magic and a SETTINGS frame header, which nghttp2 checks.
        if http2PrefaceBytes < Self.http2PrefaceLength { http2PrefaceBytes += bytes.count }
        h2.clockMs = lastActivity
        if !h2.receive(bytes) {
            // nghttp2 queued a GOAWAY for the protocol error when it could; send it and close.
            lifecycle = .closeAfterFlush
        }
        if h2.refusedStreams > 0 {
            loop.streamsRefused(h2.refusedStreams, connectionID: info.id)
            h2.refusedStreams = 0
        }
        if http2PrefaceBytes >= Self.http2PrefaceLength {
            // After the preface, the deadline runs while a request's header block is coming in.
            if !h2.headerBlockOpen {
                headDeadline = nil
            } else if headDeadline == nil {
                headDeadline = rc_monotonic_ms() + loop.headTimeoutMs
            }
        }
        dispatchCompletedStreams()
    }

    private func dispatchCompletedStreams() {
        guard let h2, !h2.completed.isEmpty || !h2.pingAcks.isEmpty else { return }
        // Nothing below adds to `completed` (dispatching only queues), so the list is walked in place
        // and keeps its capacity.
        defer {
            h2.completed.removeAll(keepingCapacity: true)
            h2.pingAcks.removeAll(keepingCapacity: true)
        }
        if !h2.completed.isEmpty { progressMs = lastActivity }
        // The requests completed by the bytes just received arrived together: one clock read, and one place in
        // `ArrivalOrder` between the PING ACKs that came with them (a request before an ACK was sent before it).
        let arrivalMs = rc_wall_ms()
        var arrivalOrder = ArrivalOrder.next()
        var acks = 0
        for (index, stream) in h2.completed.enumerated() {
            if acks < h2.pingAcks.count && h2.pingAcks[acks].afterCompleted <= index {
                while acks < h2.pingAcks.count && h2.pingAcks[acks].afterCompleted <= index {
                    acknowledged(ping: h2.pingAcks[acks].payload)
                    acks += 1
                }
                arrivalOrder = ArrivalOrder.next()
            }
            if stream.headersTooLarge {
                h2.submitResponse(streamID: stream.id, .text(431, "request header block too large\n"))
            } else if stream.bodyTooLarge {
                h2.submitResponse(streamID: stream.id, .text(413, "request body too large\n"))
            } else {
                h2.markDispatched(stream)
                // The stream's fields move into the request (it reads nothing of them once dispatched
                // but the method): taking them, not copying, spares a retain and a release of each.
                let authority = stream.authority ?? stream.headers["host"]
                var request = HTTPRequest(
                    method: stream.method, target: take(&stream.path, leaving: ""), authority: authority,
                    headers: take(&stream.headers, leaving: HTTPHeaders()), body: take(&stream.body, leaving: []),
                    version: .http2, origin: origin, streamID: stream.id, arrivalMs: arrivalMs)
                request.arrivalOrder = arrivalOrder
                request.opensConnection = stream.id == 1
                loop.dispatch(request, connectionID: info.id, token: Int64(stream.id))
            }
        }
        for ack in h2.pingAcks[acks...] { acknowledged(ping: ack.payload) }
    }

    /// Sends a PING after written answers whose client should say it read them (`AnswerStamp.awaitingRead`);
    /// false when there are none.
    func askToAcknowledge(_ stamps: [AnswerStamp]) -> Bool {
        guard !stamps.isEmpty, let h2 else { return false }
        lastPing &+= 1
        h2.submitPing(payload: lastPing)
        if awaitingRead.count >= Self.maxPingsAwaitingAck { awaitingRead.removeFirst() }
        awaitingRead.append((lastPing, stamps))
        return true
    }

    /// The client acknowledged the PING carrying `payload`: it had read every answer written before it (a client
    /// acknowledges in order). An ACK of a PING this connection is not waiting on changes nothing.
    private func acknowledged(ping payload: UInt64) {
        guard let last = awaitingRead.firstIndex(where: { $0.ping == payload }) else { return }
        for entry in awaitingRead[...last] {
            for stamp in entry.stamps { stamp.markRead() }
        }
        awaitingRead.removeFirst(last + 1)
    }

    /// Resets streams whose request body is overdue; a connection left with nothing else on it gets GOAWAY.
    func checkHTTP2BodyDeadlines(now: Int64) {
        guard let h2 else { return }
        let reset = h2.resetOverdueBodies(now: now)
        guard reset > 0 else { return }
        if h2.openStreamCount <= reset && h2.awaitingHandler == 0 {
            h2.submitGoaway(debug: "request body timeout")
            lifecycle = .closeAfterFlush
        }
        loop.markDirty(self)
    }

    func deliverHTTP2(streamID: Int32, _ response: HTTPResponse) {
        presence.forget(stream: streamID)
        h2?.submitResponse(streamID: streamID, response)
    }

    /// The client connection preface magic and the 9-byte header of its SETTINGS frame.
    static let http2PrefaceLength = 24 + 9

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

/// The value of `variable`, which is left holding `empty`: a move out of a class property, without
/// the retain and release a copy and a reassignment would cost.
private func take<T>(_ variable: inout T, leaving empty: T) -> T {
    var value = empty
    swap(&value, &variable)
    return value
}
