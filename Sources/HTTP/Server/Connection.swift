import CLinux
import Glibc

/// One accepted socket: transport (plain or TLS through memory BIOs), protocol detection,
/// output buffering and the closing sequence. Lives on its loop's thread only.
final class Connection {
    enum Mode {
        /// Waiting for enough bytes to tell the HTTP/2 preface from an HTTP/1.1 request.
        case detecting
        case http1
        case http2
    }

    enum Lifecycle {
        case open
        /// Write what is queued, then close gracefully (TLS close_notify, FIN, drain).
        case closeAfterFlush
        /// Write what is queued, then reset the connection.
        case abortAfterFlush
        /// Output is written; reset at the deadline (gives the peer a moment to read it).
        case abortAt(Int64)
        /// FIN sent; read and discard until the peer closes or the deadline passes.
        case lingering(until: Int64)
        case closed
    }

    unowned let loop: EventLoop
    let fd: Int32
    @exclusivity(unchecked) var info: ConnectionInfo {
        didSet { cachedOrigin = nil }
    }
    /// `info` and `presence` as the requests of this connection share them, made again after `info` changes.
    var origin: HTTPRequest.Origin {
        if let cachedOrigin { return cachedOrigin }
        let origin = HTTPRequest.Origin(connection: info, presence: presence)
        cachedOrigin = origin
        return origin
    }
    @exclusivity(unchecked) private var cachedOrigin: HTTPRequest.Origin?
    /// Set from the start on a TLS listener; set later when a `CONNECT` tunnel opens on a plain one.
    @exclusivity(unchecked) var tls: TLSSession?
    @exclusivity(unchecked) var isDirty = false
    /// Tells handlers whether this connection's client still waits (`HTTPRequest.isAbandoned`).
    let presence = ClientPresence()
    @exclusivity(unchecked) var registeredEvents: UInt32 = 0
    @exclusivity(unchecked) var mode: Mode = .detecting
    @exclusivity(unchecked) var lifecycle: Lifecycle = .open
    @exclusivity(unchecked) var lastActivity: Int64
    /// When the client last completed a request (or connected): the connection that made progress least
    /// recently is shed first when its listener is full (`EventLoop.shedOne`).
    @exclusivity(unchecked) var progressMs: Int64
    /// When the request head being read (or the TLS handshake and HTTP/2 preface) must be complete;
    /// nil while no head is being read. Bytes do not move it (`requestHeadTimeoutSeconds`).
    @exclusivity(unchecked) var headDeadline: Int64?
    /// While an HTTP/1.1 request body is being read: when all of it must be in (`requestBodyTimeoutSeconds`).
    @exclusivity(unchecked) var bodyDeadline: Int64?
    /// When the body's next bytes must arrive (`requestBodyReadTimeoutSeconds`), moved by every read.
    @exclusivity(unchecked) var bodyReadDeadline: Int64 = 0
    /// HTTP/2 bytes received, counted until the connection preface is in.
    @exclusivity(unchecked) var http2PrefaceBytes = 0
    @exclusivity(unchecked) var peerClosed = false
    @exclusivity(unchecked) var shuttingDown = false
    @exclusivity(unchecked) private var closeNotifySent = false
    @exclusivity(unchecked) private var detectBuffer: [UInt8] = []

    // HTTP/1.1
    @exclusivity(unchecked) var h1Parser: HTTP1Parser
    @exclusivity(unchecked) var h1Queue: [HTTP1Exchange] = []
    @exclusivity(unchecked) var h1NextSeq: Int64 = 0
    /// No further requests are read (close requested, parse error or shutdown).
    @exclusivity(unchecked) var h1Closing = false

    /// The target of the `CONNECT` being answered, until the tunnel opens.
    @exclusivity(unchecked) var tunnelTarget: String?

    // HTTP/2
    @exclusivity(unchecked) var h2: HTTP2Session?

    // Output: ciphertext (or plaintext without TLS) waiting for the socket.
    @exclusivity(unchecked) private var out: [UInt8] = []
    @exclusivity(unchecked) private var outOffset = 0
    /// Plaintext waiting to be encrypted in one go, so many small frames make few TLS records.
    @exclusivity(unchecked) private var staging: [UInt8] = []
    /// Stamps of answers handed to this connection and not yet written out (`AnswerStamp`).
    @exclusivity(unchecked) private var unsentStamps: [AnswerStamp] = []
    /// Written answers whose client is asked to say it read them (`AnswerStamp.awaitingRead`), by the payload of
    /// the PING sent after them, oldest first; at most `maxPingsAwaitingAck` (older ones keep their write only).
    @exclusivity(unchecked) var awaitingRead: [(ping: UInt64, stamps: [AnswerStamp])] = []
    /// The payload of the last PING sent for `awaitingRead`.
    @exclusivity(unchecked) var lastPing: UInt64 = 0

    /// How much output a connection may hold before it stops pulling more from nghttp2.
    static let outputHighWater = 256 * 1024
    static let maxQueuedHTTP1Requests = 16
    /// PINGs a client may leave unacknowledged before the oldest is forgotten (its answers keep their write only).
    static let maxPingsAwaitingAck = 32

    init(loop: EventLoop, fd: Int32, info: ConnectionInfo, tls: TLSSession?, now: Int64) {
        self.loop = loop
        self.fd = fd
        self.info = info
        self.tls = tls
        self.lastActivity = now
        self.progressMs = now
        self.headDeadline = now + loop.headTimeoutMs
        self.h1Parser = HTTP1Parser(
            maxHeaderBytes: loop.configuration.maxHeaderBytes, maxBodyBytes: loop.configuration.maxBodyBytes)
    }

    var isClosed: Bool {
        if case .closed = lifecycle { return true }
        return false
    }

    var pendingOutput: Int { out.count - outOffset + staging.count }

    // MARK: Events

    func handleEvents(_ flags: UInt32) {
        if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && flags & EPOLLIN.rawValue == 0 {
            closeNow()
            return
        }
        if flags & EPOLLIN.rawValue != 0 { readAvailable() }
        if isClosed { return }
        if flags & EPOLLOUT.rawValue != 0 { flushSocket() }
    }

    private func readAvailable() {
        let buffer = loop.readBuffer
        for _ in 0..<8 {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 {
                lastActivity = rc_monotonic_ms()
                if case .lingering = lifecycle { continue }
                received(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if isClosed || peerClosed { return }
                if n < buffer.count { return }
            } else if n == 0 {
                inputEnded()
                return
            } else {
                let e = errno
                if e == EAGAIN || e == EWOULDBLOCK { return }
                if e == EINTR { continue }
                closeNow()
                return
            }
        }
    }

    /// The peer finished sending (FIN or TLS close_notify).
    private func inputEnded() {
        peerClosed = true
        // A client that gives up on a request it sent closes: its unanswered requests are abandoned. One
        // that sends a request and its FIN together (`nc -N`) had nothing in flight yet and is answered.
        if mode == .http1 && !h1Queue.isEmpty { presence.markGone() }
        switch lifecycle {
        case .lingering, .closeAfterFlush:
            if pendingOutput == 0 { closeNow() }
            return
        default: break
        }
        // HTTP/2 and partial requests cannot go on; HTTP/1.1 still answers what it has read.
        if mode != .http1 { closeNow() }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else {
            receivedPlaintext(bytes)
            return
        }
        tls.feed(bytes)
        if !tls.handshakeComplete {
            switch tls.handshake() {
            case .failed:
                // Send the alert OpenSSL prepared, then close.
                tls.drainCiphertext(into: &out)
                lifecycle = .closeAfterFlush
                closeNotifySent = true
                return
            case .needMore:
                tls.drainCiphertext(into: &out)
                return
            case .done:
                info.alpn = tls.alpn
                info.serverName = tls.serverName
                if info.alpn == "h2" {
                    startHTTP2()
                } else if info.alpn == "http/1.1" {
                    mode = .http1
                }
                tls.drainCiphertext(into: &out)
            }
        }
        let plain = loop.plainBuffer
        while !isClosed {
            switch tls.read(into: plain) {
            case .bytes(let n):
                receivedPlaintext(UnsafeRawBufferPointer(rebasing: plain[0..<n]))
            case .needMore:
                tls.drainCiphertext(into: &out)
                return
            case .closed:
                tls.drainCiphertext(into: &out)
                inputEnded()
                return
            }
        }
    }

    private static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private func receivedPlaintext(_ bytes: UnsafeRawBufferPointer) {
        switch mode {
        case .http1:
            guard !h1Closing else { return }
            h1Parser.append(bytes)
            if headDeadline == nil && h1Parser.isReadingHead { headDeadline = rc_monotonic_ms() + loop.headTimeoutMs }
            if bodyDeadline != nil { bodyReadDeadline = lastActivity + loop.bodyReadTimeoutMs }
        case .http2:
            receiveHTTP2(bytes)
        case .detecting:
            detectBuffer.append(contentsOf: bytes)
            let k = min(detectBuffer.count, Self.preface.count)
            if detectBuffer[0..<k].elementsEqual(Self.preface[0..<k]) {
                guard k == Self.preface.count else { return }
                startHTTP2()
            } else {
                mode = .http1
            }
            let buffered = detectBuffer
            detectBuffer = []
            buffered.withUnsafeBytes { receivedPlaintext($0) }
        }
    }

    // MARK: Output

    /// Queues plaintext for the peer (encrypted later in one batch when TLS).
    func appendPlaintext(_ bytes: UnsafeRawBufferPointer) {
        if tls != nil {
            staging.append(contentsOf: bytes)
        } else {
            out.append(contentsOf: bytes)
        }
    }

    func appendPlaintext(_ bytes: [UInt8]) { bytes.withUnsafeBytes { appendPlaintext($0) } }

    private func encryptStaging() {
        guard let tls, !staging.isEmpty else { return }
        let ok = staging.withUnsafeBytes { tls.write($0) }
        staging.removeAll(keepingCapacity: staging.capacity <= 1 << 20)
        tls.drainCiphertext(into: &out)
        if !ok { lifecycle = .closeAfterFlush }
    }

    private func flushSocket() {
        encryptStaging()
        while outOffset < out.count {
            let n = out.withUnsafeBytes { p in
                rc_send_nosignal(fd, p.baseAddress! + outOffset, UInt(p.count - outOffset))
            }
            if n > 0 {
                outOffset += n
                lastActivity = rc_monotonic_ms()
            } else {
                let e = errno
                if n < 0 && e == EINTR { continue }
                if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) { break }
                closeNow()
                return
            }
        }
        if outOffset == out.count {
            // Keep a modest buffer around for the next response; give back big ones.
            out.removeAll(keepingCapacity: out.capacity <= 1 << 20)
            outOffset = 0
        } else if outOffset >= 1 << 20 {
            out.removeSubrange(0..<outOffset)
            outOffset = 0
        }
    }

    /// Runs after a batch of events touched this connection: protocol work, output, closing, epoll interest.
    func afterWork() {
        guard !isClosed else { return }
        if !unsentStamps.isEmpty {
            readWaitingInput()
            guard !isClosed else { return }
        }
        switch mode {
        case .http1: serviceHTTP1()
        case .http2: serviceHTTP2()
        case .detecting: break
        }
        guard !isClosed else { return }
        flushSocket()
        guard !isClosed else { return }
        if markWrittenAnswers() {
            // The PING asking the client to say it read them goes out after them.
            serviceHTTP2()
            guard !isClosed else { return }
            flushSocket()
            guard !isClosed else { return }
        }
        advanceLifecycle()
        guard !isClosed else { return }
        var events: UInt32 = 0
        let readPaused = mode == .http1 && h1Queue.count >= Self.maxQueuedHTTP1Requests
        if !peerClosed && !readPaused { events |= EPOLLIN.rawValue }
        if outOffset < out.count { events |= EPOLLOUT.rawValue }
        loop.updateInterest(self, events)
    }

    /// Whether answers handed to this connection with an `AnswerStamp` are not yet written out.
    var holdsUnsentStamps: Bool { !unsentStamps.isEmpty }

    /// Reads what the client has already sent, just before stamped answers are written (`AnswerStamp`): a
    /// request waiting on the socket then was sent before the client could have read them, and is read (and
    /// takes its place in `ArrivalOrder`) first. Not while reading is paused or over.
    private func readWaitingInput() {
        guard case .open = lifecycle, !peerClosed else { return }
        if mode == .http1 && (h1Closing || h1Queue.count >= Self.maxQueuedHTTP1Requests) { return }
        readAvailable()
    }

    /// Marks the stamps of the answers handed over so far once everything queued is written out: each of
    /// them has then left (an answer the connection still holds may be among what is queued). On HTTP/2, those
    /// `awaitingRead` are followed by a PING (`askToAcknowledge`); true when one was submitted.
    private func markWrittenAnswers() -> Bool {
        guard !unsentStamps.isEmpty, pendingOutput == 0 else { return false }
        for stamp in unsentStamps { stamp.markSent() }
        let asked = mode == .http2 && askToAcknowledge(unsentStamps.filter(\.awaitingRead))
        unsentStamps.removeAll()
        return asked
    }

    private func advanceLifecycle() {
        guard pendingOutput == 0 else { return }
        switch lifecycle {
        case .closeAfterFlush:
            if let tls, !closeNotifySent {
                closeNotifySent = true
                tls.shutdown()
                tls.drainCiphertext(into: &out)
                flushSocket()
                if isClosed || pendingOutput > 0 { return }
            }
            if peerClosed || shuttingDown {
                closeNow()
                return
            }
            Glibc.shutdown(fd, Int32(SHUT_WR))
            lifecycle = .lingering(until: rc_monotonic_ms() + 1000)
            loop.shortTimersPending = true
        case .abortAfterFlush:
            lifecycle = .abortAt(rc_monotonic_ms() + 30)
            loop.shortTimersPending = true
        case .open:
            if peerClosed {
                // HTTP/1.1 peer half-closed: close once every answer is out.
                if mode != .http1 || h1Queue.isEmpty { closeNow() }
            }
        default:
            break
        }
    }

    // MARK: Timers and shutdown

    /// Returns true while the connection waits on a short deadline.
    func checkTimers(now: Int64, idleMs: Int64) -> Bool {
        switch lifecycle {
        case .closed:
            return false
        case .lingering(let until):
            if now >= until { closeNow() }
            return true
        case .abortAt(let t):
            if now >= t { abort() }
            return true
        case .open, .closeAfterFlush, .abortAfterFlush:
            guard now - lastActivity > idleMs else { return false }
            if pendingOutput > 0 {
                abort()  // the peer stopped reading
                return false
            }
            let busy = (mode == .http1 && !h1Queue.isEmpty) || (h2?.awaitingHandler ?? 0) > 0
            if busy { return false }
            if case .open = lifecycle, let h2 {
                h2.submitGoaway()
                lifecycle = .closeAfterFlush
                lastActivity = now
                loop.markDirty(self)
            } else {
                closeNow()
            }
            return false
        }
    }

    /// Ends what a client is too slow to send: a request head (`checkHeadDeadline`) or body
    /// (`requestBodyTimeoutSeconds`, `requestBodyReadTimeoutSeconds`).
    func checkRequestDeadlines(now: Int64) {
        checkHeadDeadline(now: now)
        guard case .open = lifecycle else { return }
        switch mode {
        case .http1: checkHTTP1BodyDeadline(now: now)
        case .http2: checkHTTP2BodyDeadlines(now: now)
        case .detecting: break
        }
    }

    /// Ends a connection whose request head (or handshake, HTTP/2 preface or header block) is overdue:
    /// an HTTP/1.1 client gets 408, an HTTP/2 one GOAWAY, others are closed. Not while HTTP/1.1 answers are pending: reading then waits
    /// on the handler, not on the client.
    private func checkHeadDeadline(now: Int64) {
        guard let deadline = headDeadline, now >= deadline, case .open = lifecycle else { return }
        headDeadline = nil
        switch mode {
        case .http1:
            // A body being read, or nothing: the head is in.
            guard h1Parser.isReadingHead, !h1Closing else { return }
            guard h1Queue.isEmpty else {
                headDeadline = deadline
                return
            }
            let seconds = loop.configuration.requestHeadTimeoutSeconds
            refuseHTTP1(.text(408, "the request head did not arrive within \(seconds) s\n"))
        case .http2:
            guard let h2 else { return closeNow() }
            h2.submitGoaway(debug: "request head timeout")
            lifecycle = .closeAfterFlush
            loop.markDirty(self)
        case .detecting:
            closeNow()
        }
    }

    /// Nothing of this connection waits on the server (no request at the handler, no answer being written,
    /// not closing, no bytes read this round): its client is idle, or sending a request it has not finished.
    var canBeShed: Bool {
        // A connection read in this round has work not yet looked at (a request perhaps complete).
        guard case .open = lifecycle, pendingOutput == 0, !isDirty else { return false }
        switch mode {
        case .detecting: return true
        case .http1: return h1Queue.isEmpty
        case .http2: return h2.map { $0.awaitingHandler == 0 && !$0.wantsWrite } ?? true
        }
    }

    /// Closes this connection to make room for a newcomer at its listener's cap: an HTTP/2 client gets
    /// GOAWAY, an HTTP/1.1 client in the middle of a request 503, and the socket is closed at once.
    func shed() {
        switch mode {
        case .http2:
            h2?.submitGoaway(debug: "connection limit")
            serviceHTTP2()
        case .http1 where !h1Parser.isIdle && !h1Closing:
            let response = HTTPResponse.text(503, "the server is at its connection limit\n")
            appendPlaintext(Self.serialize(response, isHead: false, close: true))
        default:
            break
        }
        // Writing can fail and close the connection; its descriptor may then be another's already.
        guard !isClosed else { return }
        flushSocket()
        guard !isClosed else { return }
        // Unread bytes would make the close a reset, which can discard the answer at the client.
        _ = recv(fd, loop.readBuffer.baseAddress, loop.readBuffer.count, Int32(MSG_DONTWAIT))
        closeNow()
    }

    /// The server is stopping: finish what is in flight, accept nothing new.
    func beginShutdown() {
        shuttingDown = true
        switch mode {
        case .detecting:
            if case .open = lifecycle { lifecycle = .closeAfterFlush }
        case .http1:
            h1Closing = true
            if h1Queue.isEmpty && pendingOutput == 0 { closeNow() }
        case .http2:
            h2?.submitGoaway()
        }
    }

    /// Closes the socket now.
    func closeNow() {
        if isClosed { return }
        lifecycle = .closed
        presence.markGone()
        close(fd)
        loop.removeConnection(self)
        h2 = nil
        h1Queue = []
        out = []
        staging = []
    }

    /// Resets the TCP connection (SO_LINGER 0), as a crashed or hostile server would.
    func abort() {
        if isClosed { return }
        _ = rc_set_linger_zero(fd)
        closeNow()
    }

    /// Makes a handler's change to the connection before any answer (`HTTPImmediateHandler.directiveOnArrival`):
    /// a new SETTINGS_MAX_CONCURRENT_STREAMS on HTTP/2; anything else is ignored.
    func apply(onArrival directive: ConnectionDirective) {
        guard case .setMaxConcurrentStreams(let n) = directive, case .http2 = mode else { return }
        h2?.submitMaxConcurrentStreams(n)
    }

    /// A handler answered request `token`.
    func deliver(token: Int64, _ response: HTTPResponse) {
        if response.directive == .resetWithoutResponse {
            abort()
            return
        }
        if let stamp = response.sentStamp { unsentStamps.append(stamp) }
        switch mode {
        case .http1: deliverHTTP1(seq: token, response)
        case .http2: deliverHTTP2(streamID: Int32(truncatingIfNeeded: token), response)
        case .detecting: break
        }
    }
}
