import CLinux
import CNghttp2
import Glibc

/// Owns an `nghttp2_session` (server side) and the streams it carries.
///
/// Callbacks only record what happened and submit frames; the connection drains
/// `completed` after each `receive` and calls `send` to collect output.
final class HTTP2Session {
    private var session: OpaquePointer!
    /// Where nghttp2 allocates for this session: its frames, streams and header fields are many small
    /// blocks freed soon after, which the C allocator's slower paths (its per-thread cache holds seven
    /// of a size) made cost about 5% of the APNs mock's CPU per request.
    /// Set once the session exists (a failed init destroys the pool itself).
    private var blocks: OpaquePointer?
    /// The open request streams, in no order; each knows its place (`HTTP2Stream.slot`), and nghttp2
    /// keeps a pointer to it as the stream's user data for lookups by ID (a Swift dictionary's hashing
    /// cost more than the rest of the lookup, insertion and removal together).
    @exclusivity(unchecked) private var streams: [HTTP2Stream] = []
    /// Streams whose request is complete (or failed a limit), in arrival order.
    @exclusivity(unchecked) var completed: [HTTP2Stream] = []
    /// The client's PING ACKs since the connection last took them: each ACK's payload and how many streams of
    /// `completed` came before it, so the connection orders the ACK among the requests it read with it.
    @exclusivity(unchecked) var pingAcks: [(payload: UInt64, afterCompleted: Int)] = []
    /// Set by a stream that closed with `.resetAfterResponse`.
    @exclusivity(unchecked) var abortRequested = false
    /// Streams refused (RST_STREAM REFUSED_STREAM: one more than the SETTINGS_MAX_CONCURRENT_STREAMS the session
    /// had sent) since the connection last took the count.
    @exclusivity(unchecked) var refusedStreams = 0
    /// A header block (HEADERS and its CONTINUATIONs, which nothing may interleave) began and is not
    /// complete yet.
    @exclusivity(unchecked) private(set) var headerBlockOpen = false
    /// Told about streams the client resets while their handler runs.
    @exclusivity(unchecked) var presence: ClientPresence?
    /// What the session makes of request header fields, and remembers of them for the next request.
    private let requestFields = HTTP2RequestFields()
    /// Builds response header lists.
    private let responseFields = HTTP2ResponseFields()
    /// Streams handed to the handler whose response has not come back.
    private(set) var awaitingHandler = 0
    let maxHeaderBytes: Int
    let maxBodyBytes: Int
    /// nghttp2's HTTP messaging checks requests against HTTP/2's rules and this session does not: only
    /// for tests that compare the two.
    let nghttp2ChecksRequests: Bool
    /// The resets of open streams the client may still send (`HTTP2ResetBudget`).
    private var resetBudget = HTTP2ResetBudget()
    /// The monotonic clock in milliseconds (a fixed one in tests).
    private let nowMs: () -> Int64

    init?(
        maxConcurrentStreams: UInt32, maxHeaderBytes: Int, maxBodyBytes: Int, nghttp2ChecksRequests: Bool = false,
        nowMs: @escaping () -> Int64 = { rc_monotonic_ms() }
    ) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.nghttp2ChecksRequests = nghttp2ChecksRequests
        self.nowMs = nowMs
        guard let blocks = rc_block_pool_create() else { return nil }
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            rc_block_pool_destroy(blocks)
            return nil
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameRecv)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunkRecv)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(callbacks, onInvalidFrameRecv)

        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else {
            rc_block_pool_destroy(blocks)
            return nil
        }
        defer { nghttp2_option_del(option) }
        // Enforce our own limit before the peer acknowledges SETTINGS, as real servers do.
        nghttp2_option_set_max_outbound_ack(option, 1000)
        nghttp2_option_set_max_settings(option, 64)
        // nghttp2's rapid-reset bucket charges every RST_STREAM, also those curl sends for streams already
        // answered, and so ended long curl connections; the session keeps its own (`HTTP2ResetBudget`),
        // charged only for streams still open. A bucket that never runs dry turns nghttp2's off.
        nghttp2_option_set_stream_reset_rate_limit(option, UInt64.max, UInt64.max)
        // Closed streams are kept only to place later streams in an RFC 7540 priority tree, which no
        // handler here reads; keeping them cost about 7% of the APNs mock's CPU per request.
        nghttp2_option_set_no_closed_streams(option, 1)
        // The session checks requests against HTTP/2's rules itself (`HTTP2RequestRules`), as nghttp2's HTTP
        // messaging would, but judges a field repeated byte for byte once per connection: nghttp2 scanned
        // every field of every request, which cost about 3% of the APNs mock's CPU per push.
        if !nghttp2ChecksRequests { nghttp2_option_set_no_http_messaging(option, 1) }

        var s: OpaquePointer?
        let me = Unmanaged.passUnretained(self).toOpaque()
        // nghttp2 copies the allocator.
        var mem = nghttp2_mem(
            mem_user_data: UnsafeMutableRawPointer(blocks), malloc: rc_block_pool_malloc, free: rc_block_pool_free,
            calloc: rc_block_pool_calloc, realloc: rc_block_pool_realloc)
        guard nghttp2_session_server_new3(&s, callbacks, me, option, &mem) == 0, let s else {
            rc_block_pool_destroy(blocks)
            return nil
        }
        session = s
        self.blocks = blocks

        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 4 << 20)
    }

    deinit {
        // Delete before the streams (the data provider's source) and this object go away, and before
        // the blocks it was allocated from.
        nghttp2_session_del(session)
        rc_block_pool_destroy(blocks)
    }

    // MARK: Driving

    /// Feeds received bytes; false on a fatal protocol error (the session queued GOAWAY if it could), and
    /// for every later call: nothing received after the error is handled.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !receiveFailed else { return false }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let r = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        receiveFailed = r < 0
        return r >= 0
    }

    /// `receive` met a fatal error.
    private var receiveFailed = false

    /// Calls `body` with each chunk of output until nghttp2 has nothing more or `body` returns false.
    /// Returns false on a fatal error.
    func send(_ body: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        while true {
            var p: UnsafePointer<UInt8>?
            let n = nghttp2_session_mem_send(session, &p)
            if n < 0 { return false }
            if n == 0 { return true }
            if !body(UnsafeRawBufferPointer(start: p, count: n)) { return true }
        }
    }

    var wantsRead: Bool { nghttp2_session_want_read(session) != 0 }
    var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }

    func markDispatched(_ stream: HTTP2Stream) {
        stream.dispatched = true
        stream.awaitingHandler = true
        awaitingHandler += 1
    }

    /// Sends GOAWAY (NO_ERROR unless told) naming the last stream processed.
    func submitGoaway(errorCode: UInt32 = 0, debug: String = "") {
        let last = nghttp2_session_get_last_proc_stream_id(session)
        var d = Array(debug.utf8)
        _ = d.withUnsafeMutableBufferPointer { p in
            nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), last, errorCode, p.baseAddress, p.count)
        }
    }

    /// Sends a PING carrying `payload` (big-endian), which the client's ACK echoes (`pingAcks`).
    func submitPing(payload: UInt64) {
        var bytes = payload.bigEndian
        withUnsafeBytes(of: &bytes) { p in
            let opaque = p.bindMemory(to: UInt8.self).baseAddress
            _ = nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), opaque)
        }
    }

    fileprivate func pingAcknowledged(_ frame: UnsafePointer<nghttp2_frame>) {
        var payload: UInt64 = 0
        withUnsafeBytes(of: frame.pointee.ping.opaque_data) { p in
            for byte in p { payload = payload << 8 | UInt64(byte) }
        }
        pingAcks.append((payload, completed.count))
    }

    func submitMaxConcurrentStreams(_ n: UInt32) {
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: n)
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, 1)
    }

    /// Submits the response for a stream; false when the stream is gone (reset by the peer).
    @discardableResult
    func submitResponse(streamID: Int32, _ response: HTTPResponse) -> Bool {
        guard let stream = lookUp(streamID) else { return false }
        if stream.awaitingHandler {
            stream.awaitingHandler = false
            awaitingHandler -= 1
        }
        guard !stream.responded else { return false }
        stream.responded = true
        stream.directive = response.directive
        stream.responseBody = stream.method == "HEAD" ? [] : response.body
        stream.responseOffset = 0

        let hasBody = !stream.responseBody.isEmpty
        let session = self.session
        let rv = responseFields.withFields(of: response) { nv in
            if hasBody {
                var provider = nghttp2_data_provider(
                    source: nghttp2_data_source(ptr: nil), read_callback: readResponseBody)
                return nghttp2_submit_response(session, streamID, nv.baseAddress, nv.count, &provider)
            }
            return nghttp2_submit_response(session, streamID, nv.baseAddress, nv.count, nil)
        }
        return rv == 0
    }

    // MARK: Callback bodies

    fileprivate func beginHeaders(streamID: Int32) {
        headerBlockOpen = true
        if let open = lookUp(streamID) { remove(open) }
        let stream = newStream(id: streamID)
        stream.slot = streams.count
        streams.append(stream)
        nghttp2_session_set_stream_user_data(session, streamID, Unmanaged.passUnretained(stream).toOpaque())
        recentStream = (streamID, Unmanaged.passUnretained(stream))
    }

    /// Closed streams kept to be used again: a stream object per request cost an allocation and a free
    /// of a 20-field object (about 1% of the APNs mock's CPU per push).
    @exclusivity(unchecked) private var spareStreams: [HTTP2Stream] = []
    private static let maxSpareStreams = 128

    /// A stream with this ID: a spare one reset, or a new one.
    private func newStream(id: Int32) -> HTTP2Stream {
        // Only a spare nothing else holds (the `completed` list may still hold a stream reset by the
        // peer) is used again.
        if var spare = spareStreams.popLast(), isKnownUniquelyReferenced(&spare) {
            spare.reset(id: id)
            return spare
        }
        return HTTP2Stream(id: id)
    }

    /// The open stream with this ID, through nghttp2's user data (`streams` holds it).
    private func lookUp(_ id: Int32) -> HTTP2Stream? {
        guard let p = nghttp2_session_get_stream_user_data(session, id) else { return nil }
        return Unmanaged<HTTP2Stream>.fromOpaque(p).takeUnretainedValue()
    }

    /// Drops `stream` from `streams` (the last one takes its place).
    private func remove(_ stream: HTTP2Stream) {
        nghttp2_session_set_stream_user_data(session, stream.id, nil)
        if recentStream?.id == stream.id { recentStream = nil }
        let last = streams.count - 1
        if stream.slot != last {
            streams.swapAt(stream.slot, last)
            streams[stream.slot].slot = stream.slot
        }
        let removed = streams.removeLast()
        if spareStreams.count < Self.maxSpareStreams { spareStreams.append(removed) }
    }

    /// The stream whose frames arrived last: header and data callbacks come in runs for one stream.
    /// Unretained: `streams` holds it, and `remove` forgets it.
    private var recentStream: (id: Int32, stream: Unmanaged<HTTP2Stream>)?

    /// Calls `body` with the open stream with this ID, if any, without retaining it (a retain and a
    /// release per callback, a dozen callbacks per request).
    private func withStream(_ id: Int32, _ body: (HTTP2Stream) -> Void) {
        let found: Unmanaged<HTTP2Stream>
        if let recent = recentStream, recent.id == id {
            found = recent.stream
        } else {
            guard let p = nghttp2_session_get_stream_user_data(session, id) else { return }
            found = Unmanaged.fromOpaque(p)
            recentStream = (id, found)
        }
        found._withUnsafeGuaranteedRef(body)
    }

    /// False when the field breaks HTTP/2's rules and the stream is being reset.
    fileprivate func header(
        streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        var ok = true
        withStream(streamID) { ok = header(of: $0, name: name, value: value) }
        return ok
    }

    private func header(
        of stream: HTTP2Stream, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard !stream.rejected else { return false }
        // The rules apply to every field, even of a request answered already or too large to keep.
        var keep = !stream.dispatched
        if keep {
            stream.headerBytes += name.count + value.count + 32
            if stream.headerBytes > maxHeaderBytes { stream.headersTooLarge = true }
            keep = !stream.headersTooLarge
        }
        return requestFields.take(name: name, value: value, of: stream, keep: keep) || !reject(stream)
    }

    /// Resets `stream` with PROTOCOL_ERROR for breaking HTTP/2's rules, as nghttp2 does (nghttp2 then passes
    /// nothing more of it). Returns whether it did (not when nghttp2 checks requests).
    private func reject(_ stream: HTTP2Stream) -> Bool {
        guard !nghttp2ChecksRequests else { return false }
        stream.rejected = true
        nghttp2_submit_rst_stream(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id, NGHTTP2_PROTOCOL_ERROR.rawValue)
        return true
    }

    fileprivate func dataChunk(streamID: Int32, _ data: UnsafeBufferPointer<UInt8>) {
        withStream(streamID) { dataChunk(of: $0, data) }
    }

    private func dataChunk(of stream: HTTP2Stream, _ data: UnsafeBufferPointer<UInt8>) {
        guard !stream.rejected else { return }
        if !stream.rules.received(data.count) && reject(stream) { return }
        guard !stream.dispatched, !stream.bodyTooLarge else { return }
        if stream.bodyDeadline != 0 { stream.bodyReadDeadline = clockMs + bodyReadTimeoutMs }
        if stream.body.count + data.count > maxBodyBytes {
            stream.bodyTooLarge = true
            stream.body = []
            completed.append(stream)  // answered 413 right away; the rest of the body is dropped
            stream.dispatched = true
            return
        }
        stream.body.append(contentsOf: data)
    }

    fileprivate func frameReceived(type: UInt8, flags: UInt8, streamID: Int32) {
        if type == UInt8(NGHTTP2_HEADERS.rawValue) { headerBlockOpen = false }
        guard type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue) else { return }
        withStream(streamID) { frameReceived(type: type, flags: flags, of: $0) }
    }

    private func frameReceived(type: UInt8, flags: UInt8, of stream: HTTP2Stream) {
        guard !stream.rejected else { return }
        let endStream = flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        if type == UInt8(NGHTTP2_HEADERS.rawValue) {
            let ok =
                stream.headerBlockFinished
                ? stream.rules.trailersEnded(endStream: endStream) : stream.rules.headerBlockEnded(endStream: endStream)
            requestFields.finish(stream)
            if !ok && reject(stream) { return }
        } else if endStream && !stream.rules.streamEnded() && reject(stream) {
            return
        }
        guard !stream.dispatched else { return }
        if endStream || (type == UInt8(NGHTTP2_HEADERS.rawValue) && stream.headersTooLarge) {
            if stream.headersTooLarge { stream.dispatched = true }
            stream.bodyDeadline = 0
            completed.append(stream)
        } else if stream.bodyDeadline == 0 {
            startBodyClocks(of: stream)
        }
    }

    // MARK: Body deadlines

    /// When the bytes being received arrived (monotonic ms), set by the connection before `receive`.
    @exclusivity(unchecked) var clockMs: Int64 = 0
    /// `requestBodyTimeoutSeconds` and `requestBodyReadTimeoutSeconds` in ms, set by the connection.
    @exclusivity(unchecked) var bodyTimeoutMs: Int64 = 60_000
    @exclusivity(unchecked) var bodyReadTimeoutMs: Int64 = 30_000
    /// No stream's body deadline comes before this (`Int64.max`: no body is being read).
    @exclusivity(unchecked) private var nextBodyCheckMs = Int64.max

    /// How many request streams are open.
    var openStreamCount: Int { streams.count }

    private func startBodyClocks(of stream: HTTP2Stream) {
        stream.bodyDeadline = clockMs + bodyTimeoutMs
        stream.bodyReadDeadline = clockMs + bodyReadTimeoutMs
        nextBodyCheckMs = min(nextBodyCheckMs, stream.bodyReadDeadline, stream.bodyDeadline)
    }

    /// Resets with CANCEL (as nginx does) every stream whose request body is overdue; returns how many.
    func resetOverdueBodies(now: Int64) -> Int {
        guard now >= nextBodyCheckMs else { return 0 }
        var next = Int64.max
        var reset = 0
        for stream in streams where stream.bodyDeadline != 0 {
            if stream.dispatched || stream.rejected {
                stream.bodyDeadline = 0
            } else if now >= min(stream.bodyDeadline, stream.bodyReadDeadline) {
                stream.bodyDeadline = 0
                stream.rejected = true
                nghttp2_submit_rst_stream(
                    session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id, NGHTTP2_CANCEL.rawValue)
                reset += 1
            } else {
                next = min(next, stream.bodyDeadline, stream.bodyReadDeadline)
            }
        }
        nextBodyCheckMs = next
        return reset
    }

    /// The client reset stream `streamID` (before nghttp2 closes it). A stream still open at the server is
    /// charged to the reset budget; once it is spent the session ends with GOAWAY ENHANCE_YOUR_CALM, and
    /// nghttp2 takes nothing more of the input, so the GOAWAY's last-stream-id names every stream handled.
    fileprivate func resetReceived(streamID: Int32) {
        // Streams answered and closed are gone from nghttp2's user data: their resets cost nothing.
        guard nghttp2_session_get_stream_user_data(session, streamID) != nil else { return }
        if !resetBudget.spend(nowMs: nowMs()) {
            nghttp2_session_terminate_session(session, NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
        }
    }

    fileprivate func streamClosed(streamID: Int32) {
        if recentStream?.id == streamID { recentStream = nil }
        guard let stream = lookUp(streamID) else { return }
        remove(stream)
        if stream.awaitingHandler {
            awaitingHandler -= 1
            presence?.markReset(stream: streamID)
        }
        switch stream.directive {
        case .goawayAfterResponse(let code, let debug): submitGoaway(errorCode: code, debug: debug)
        case .setMaxConcurrentStreams(let n): submitMaxConcurrentStreams(n)
        case .resetAfterResponse: abortRequested = true
        case .none, .resetWithoutResponse: break
        }
    }

    fileprivate func readBody(
        streamID: Int32, into buf: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = lookUp(streamID) else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let n = min(length, stream.responseBody.count - stream.responseOffset)
        if n > 0 {
            stream.responseBody.withUnsafeBufferPointer { p in
                buf.update(from: p.baseAddress! + stream.responseOffset, count: n)
            }
            stream.responseOffset += n
        }
        if stream.responseOffset >= stream.responseBody.count {
            flags.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
            stream.responseBody = []
            stream.responseOffset = 0
        }
        return n
    }
}

// MARK: C callbacks (no captures: the session travels as user_data)

/// Calls `body` with the session behind `user_data`, without retaining it: the connection owns the
/// session for as long as nghttp2 runs callbacks (a retain and a release per callback, a dozen or more
/// callbacks per request, cost about 1% of the APNs mock's CPU).
private func withOwner<R>(_ p: UnsafeMutableRawPointer?, _ body: (HTTP2Session) -> R) -> R {
    Unmanaged<HTTP2Session>.fromOpaque(p!)._withUnsafeGuaranteedRef(body)
}

private let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, user in
    guard let frame else { return 0 }
    if frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue)
        && frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
    {
        withOwner(user) { $0.beginHeaders(streamID: frame.pointee.hd.stream_id) }
    }
    return 0
}

private let onHeader: nghttp2_on_header_callback = { _, frame, name, namelen, value, valuelen, _, user in
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    let ok = withOwner(user) {
        $0.header(
            streamID: frame.pointee.hd.stream_id, name: UnsafeBufferPointer(start: name, count: namelen),
            value: UnsafeBufferPointer(start: value, count: valuelen))
    }
    // As nghttp2 does when a field breaks the rules: the rest of the header block is decoded but not passed
    // on, and no frame-received callback comes for it (the stream was reset already).
    return ok ? 0 : NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue
}

private let onFrameRecv: nghttp2_on_frame_recv_callback = { _, frame, user in
    guard let frame else { return 0 }
    if frame.pointee.hd.type == UInt8(NGHTTP2_RST_STREAM.rawValue) {
        withOwner(user) { $0.resetReceived(streamID: frame.pointee.hd.stream_id) }
        return 0
    }
    if frame.pointee.hd.type == UInt8(NGHTTP2_PING.rawValue) {
        if frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 {
            withOwner(user) { $0.pingAcknowledged(frame) }
        }
        return 0
    }
    withOwner(user) {
        $0.frameReceived(
            type: frame.pointee.hd.type, flags: frame.pointee.hd.flags, streamID: frame.pointee.hd.stream_id)
    }
    return 0
}

private let onInvalidFrameRecv: nghttp2_on_invalid_frame_recv_callback = { _, frame, libError, user in
    if let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
        libError == NGHTTP2_ERR_REFUSED_STREAM.rawValue
    {
        withOwner(user) { $0.refusedStreams += 1 }
    }
    return 0
}

private let onDataChunkRecv: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, len, user in
    withOwner(user) { $0.dataChunk(streamID: streamID, UnsafeBufferPointer(start: data, count: len)) }
    return 0
}

private let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, _, user in
    withOwner(user) { $0.streamClosed(streamID: streamID) }
    return 0
}

private let readResponseBody: nghttp2_data_source_read_callback = { _, streamID, buf, length, flags, _, user in
    withOwner(user) { $0.readBody(streamID: streamID, into: buf!, length: length, flags: flags!) }
}
