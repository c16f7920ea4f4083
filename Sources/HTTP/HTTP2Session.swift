import CLinux
import CNghttp2
import Glibc

/// One HTTP/2 request stream as it is received and answered.
final class HTTP2Stream {
    let id: Int32
    @exclusivity(unchecked) var method = ""
    @exclusivity(unchecked) var path = ""
    @exclusivity(unchecked) var authority: String?
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// While true, the regular fields so far are the first `sharedFieldCount` of the session's
    /// `previousHeaders` and `headers` is still empty (see `HTTP2Session.header`).
    @exclusivity(unchecked) var sharesPreviousHeaders = true
    @exclusivity(unchecked) var sharedFieldCount = 0
    /// The request header block is complete (later fields are trailers).
    @exclusivity(unchecked) var headerBlockFinished = false
    /// The body once the stream ended; until then only the bytes that differ from `bodyBase` (see
    /// `HTTP2Session.dataChunk`).
    @exclusivity(unchecked) var body: [UInt8] = []
    /// The previous request's body when this stream began; while `sharesBodyBase`, the body so far is
    /// its first `sharedBodyCount` bytes and `body` is still empty.
    @exclusivity(unchecked) var bodyBase: [UInt8] = []
    @exclusivity(unchecked) var sharesBodyBase = true
    @exclusivity(unchecked) var sharedBodyCount = 0
    @exclusivity(unchecked) var headerBytes = 0
    /// How many fields (pseudo-headers included) the header block had so far, not counting those
    /// still matched against the previous block (`matchesPreviousBlock`).
    @exclusivity(unchecked) var fieldCount = 0
    /// While true, the header block so far is the first `matchedBlockFields` fields of the session's
    /// `previousBlock`, and nothing else was made of them yet (see `HTTP2Session.header`).
    @exclusivity(unchecked) var matchesPreviousBlock = false
    @exclusivity(unchecked) var matchedBlockFields = 0
    @exclusivity(unchecked) var headersTooLarge = false
    @exclusivity(unchecked) var bodyTooLarge = false
    /// Set once a request went to the handler or an error response was submitted.
    @exclusivity(unchecked) var dispatched = false
    /// Handed to the handler and not yet answered.
    @exclusivity(unchecked) var awaitingHandler = false
    @exclusivity(unchecked) var responded = false
    @exclusivity(unchecked) var responseBody: [UInt8] = []
    @exclusivity(unchecked) var responseOffset = 0
    /// What to do to the connection when this stream closes.
    @exclusivity(unchecked) var directive: ConnectionDirective = .none

    /// Where the stream is in `HTTP2Session.streams`.
    @exclusivity(unchecked) var slot = 0

    init(id: Int32) { self.id = id }
}

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
    /// Set by a stream that closed with `.resetAfterResponse`.
    @exclusivity(unchecked) var abortRequested = false
    /// Streams handed to the handler whose response has not come back.
    private(set) var awaitingHandler = 0
    let maxHeaderBytes: Int
    let maxBodyBytes: Int

    init?(maxConcurrentStreams: UInt32, maxHeaderBytes: Int, maxBodyBytes: Int) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
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

        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else {
            rc_block_pool_destroy(blocks)
            return nil
        }
        defer { nghttp2_option_del(option) }
        // Enforce our own limit before the peer acknowledges SETTINGS, as real servers do.
        nghttp2_option_set_max_outbound_ack(option, 1000)
        nghttp2_option_set_max_settings(option, 64)
        // Closed streams are kept only to place later streams in an RFC 7540 priority tree, which no
        // handler here reads; keeping them cost about 7% of the APNs mock's CPU per request.
        nghttp2_option_set_no_closed_streams(option, 1)

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

    /// Feeds received bytes; false on a fatal protocol error (the session queued GOAWAY if it could).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let r = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        return r >= 0
    }

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

        // Names and values in one reused buffer; nghttp2 copies them during submit.
        nvBytes.removeAll(keepingCapacity: true)
        nvSpans.removeAll(keepingCapacity: true)
        appendField(":status", Self.decimal(response.status))
        var hasLength = false
        for (name, value) in response.headers.fields {
            // The names below start with these letters; comparing strings costs more than a byte.
            switch name.utf8.first {
            case UInt8(ascii: ":"): continue
            case UInt8(ascii: "c"), UInt8(ascii: "t"), UInt8(ascii: "k"), UInt8(ascii: "u"), UInt8(ascii: "p"):
                switch name {
                case "connection", "transfer-encoding", "keep-alive", "upgrade", "proxy-connection": continue
                case "content-length": hasLength = true
                default: break
                }
            default: break
            }
            appendField(name, value)
        }
        if !hasLength && response.status != 204 && response.status != 304 && response.status >= 200 {
            appendField("content-length", Self.decimal(response.body.count))
        }
        let hasBody = !stream.responseBody.isEmpty
        let session = self.session
        let rv = nvBytes.withUnsafeMutableBufferPointer { base -> Int32 in
            nva.removeAll(keepingCapacity: true)
            for s in nvSpans {
                nva.append(
                    nghttp2_nv(
                        name: base.baseAddress! + s.name, value: base.baseAddress! + s.value, namelen: s.nameLength,
                        valuelen: s.valueLength, flags: s.flags))
            }
            return nva.withUnsafeBufferPointer { nv in
                if hasBody {
                    var provider = nghttp2_data_provider(
                        source: nghttp2_data_source(ptr: nil), read_callback: readResponseBody)
                    return nghttp2_submit_response(session, streamID, nv.baseAddress, nv.count, &provider)
                }
                return nghttp2_submit_response(session, streamID, nv.baseAddress, nv.count, nil)
            }
        }
        return rv == 0
    }

    /// `String(n)`, made once for the small numbers every response carries (status, content-length).
    private static func decimal(_ n: Int) -> String {
        n >= 0 && n < smallDecimals.count ? smallDecimals[n] : String(n)
    }
    private static let smallDecimals = (0..<1024).map { String($0) }

    // Scratch space for building header lists, reused across responses.
    @exclusivity(unchecked) private var nvBytes: [UInt8] = []
    @exclusivity(unchecked) private var nvSpans:
        [(name: Int, nameLength: Int, value: Int, valueLength: Int, flags: UInt8)] = []
    @exclusivity(unchecked) private var nva: [nghttp2_nv] = []

    /// The value each response field name had last on this connection (a few names at most).
    @exclusivity(unchecked) private var sentFields: [(name: String, value: String)] = []

    /// Whether HPACK should index this field: only once it repeats. A value that differs on every
    /// response (`apns-id`) would otherwise be added to the dynamic table each time, evicting others,
    /// for nothing: that cost about 5% of the APNs mock's CPU per request.
    private func shouldIndex(_ name: String, _ value: String) -> Bool {
        let length = name.utf8.count
        if let i = sentFields.firstIndex(where: { $0.name.utf8.count == length && $0.name == name }) {
            if sentFields[i].value == value { return true }
            sentFields[i].value = value
        } else if sentFields.count < 16 {
            sentFields.append((name, value))
        }
        return false
    }

    /// Appends the UTF-8 of `string` to `nvBytes`, from its storage when it has one (faster than its view).
    private func appendBytes(of string: String) {
        let done = string.utf8.withContiguousStorageIfAvailable { nvBytes.append(contentsOf: $0) }
        if done == nil { nvBytes.append(contentsOf: string.utf8) }
    }

    private func appendField(_ name: String, _ value: String) {
        let flags = UInt8((shouldIndex(name, value) ? NGHTTP2_NV_FLAG_NONE : NGHTTP2_NV_FLAG_NO_INDEX).rawValue)
        let n = nvBytes.count
        appendBytes(of: name)
        let v = nvBytes.count
        appendBytes(of: value)
        nvSpans.append((n, v - n, v, nvBytes.count - v, flags))
    }

    // MARK: Callback bodies

    fileprivate func beginHeaders(streamID: Int32) {
        if let open = lookUp(streamID) { remove(open) }
        let stream = HTTP2Stream(id: streamID)
        stream.bodyBase = previousBody
        stream.matchesPreviousBlock = hasPreviousBlock
        recordedBlock.removeAll()
        stream.slot = streams.count
        streams.append(stream)
        nghttp2_session_set_stream_user_data(session, streamID, Unmanaged.passUnretained(stream).toOpaque())
        recentStream = (streamID, Unmanaged.passUnretained(stream))
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
        streams.removeLast()
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

    fileprivate func header(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        withStream(streamID) { header(of: $0, name: name, value: value) }
    }

    private func header(of stream: HTTP2Stream, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard !stream.dispatched else { return }
        stream.headerBytes += name.count + value.count + 32
        if stream.headerBytes > maxHeaderBytes {
            stream.headersTooLarge = true
            return
        }
        if stream.headersTooLarge { return }
        if stream.matchesPreviousBlock {
            if previousBlock.matches(stream.matchedBlockFields, name: name, value: value) {
                stream.matchedBlockFields += 1
                return
            }
            leavePreviousBlock(stream)
        }
        field(of: stream, name: name, value: value)
    }

    /// Takes in one field of `stream`'s header block (or its trailers).
    private func field(of stream: HTTP2Stream, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if !stream.headerBlockFinished { recordedBlock.append(name: name, value: value) }
        let position = stream.fieldCount
        stream.fieldCount += 1
        // A regular field equal to the previous request's at the same place: nothing to look up or build.
        if stream.sharesPreviousHeaders && name.first != UInt8(ascii: ":")
            && matchesPreviousField(stream.sharedFieldCount, name: name, value: value)
        {
            stream.sharedFieldCount += 1
            return
        }
        let (n, v) = strings(ofField: position, name: name, value: value)
        if name.first == UInt8(ascii: ":") {
            // By the bytes: a switch on the string compared it with each case in turn.
            if Self.equal(name, ":path") {
                stream.path = v
            } else if Self.equal(name, ":method") {
                stream.method = v
            } else if Self.equal(name, ":authority") {
                stream.authority = v
            }
        } else if stream.sharesPreviousHeaders {
            // The bytes differ from the previous request's field (compared above; never as Strings,
            // whose equality is canonical equivalence): from here on the stream keeps its own list.
            materializeHeaders(stream)
            stream.headers.addLowercased(n, v)
        } else {
            stream.headers.addLowercased(n, v)
        }
    }

    /// The regular fields of the last request header block on this connection.
    ///
    /// A client sends the same fields on request after request; a stream whose fields turn out equal
    /// (their bytes are compared with these strings as they arrive) takes this list instead of
    /// building its own: one array allocation fewer per request, no string lookups, and none of the
    /// retains and releases of its strings, for the request and for the capture that keeps it.
    private var previousHeaders = HTTPHeaders()
    /// The bytes of `previousHeaders`' fields, compared with the fields as they arrive: the strings
    /// themselves were slower to compare (a short string is copied out of line first).
    private var previousHeaderBytes: [(name: [UInt8], value: [UInt8])] = []

    /// Whether regular field `k` of `previousHeaders` has these bytes.
    private func matchesPreviousField(_ k: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard k < previousHeaderBytes.count else { return false }
        return previousHeaderBytes.withUnsafeBufferPointer { fields in
            Self.equal(fields[k].name, name) && Self.equal(fields[k].value, value)
        }
    }

    /// Gives `stream` its own header list with the fields it shared so far.
    private func materializeHeaders(_ stream: HTTP2Stream) {
        guard stream.sharesPreviousHeaders else { return }
        stream.sharesPreviousHeaders = false
        stream.headers = previousHeaders.prefix(stream.sharedFieldCount, reservingCapacity: recentFields.count)
    }

    /// The header block of `stream` is complete: settles its header list and remembers it for the next.
    private func finishHeaderBlock(_ stream: HTTP2Stream) {
        guard !stream.headerBlockFinished else { return }
        if stream.headersTooLarge {
            stream.matchesPreviousBlock = false
            stream.headerBlockFinished = true
            materializeHeaders(stream)
            return
        }
        if stream.matchesPreviousBlock {
            if stream.matchedBlockFields == previousBlock.count {
                // The previous block again, field for field: what the stream that sent it made of it.
                stream.matchesPreviousBlock = false
                stream.headerBlockFinished = true
                stream.method = previousBlock.method
                stream.path = previousBlock.path
                stream.authority = previousBlock.authority
                stream.sharesPreviousHeaders = false
                stream.headers = previousHeaders
                return
            }
            leavePreviousBlock(stream)
        }
        stream.headerBlockFinished = true
        defer { rememberBlock(of: stream) }
        if stream.sharesPreviousHeaders && stream.sharedFieldCount == previousHeaders.count {
            stream.sharesPreviousHeaders = false
            stream.headers = previousHeaders
            return
        }
        materializeHeaders(stream)
        previousHeaders = stream.headers
        previousHeaderBytes = stream.headers.fields.map { (Array($0.name.utf8), Array($0.value.utf8)) }
    }

    /// The last complete request header block on this connection, as bytes, with what its stream made
    /// of its pseudo-headers (its regular fields are `previousHeaders`).
    ///
    /// A client pushing one request again and again sends the same block every time: a stream whose
    /// fields match it (compared as they arrive, without making anything of them) takes the previous
    /// stream's strings and list whole, and makes nothing of its own.
    private var previousBlock = HeaderBlockBytes()
    private var hasPreviousBlock = false
    /// The fields of the header block being received, once it no longer matches `previousBlock`.
    private var recordedBlock = HeaderBlockBytes()

    /// `stream`'s fields stop matching `previousBlock`: the fields matched so far are taken in as if
    /// they had just arrived.
    private func leavePreviousBlock(_ stream: HTTP2Stream) {
        stream.matchesPreviousBlock = false
        let block = previousBlock
        for k in 0..<stream.matchedBlockFields {
            block.withField(k) { name, value in field(of: stream, name: name, value: value) }
        }
    }

    /// Makes `stream`'s complete header block the one the next stream is compared with.
    private func rememberBlock(of stream: HTTP2Stream) {
        swap(&previousBlock, &recordedBlock)
        previousBlock.method = stream.method
        previousBlock.path = stream.path
        previousBlock.authority = stream.authority
        hasPreviousBlock = true
    }

    /// The fields of recent requests on this connection by position in the header block, as bytes
    /// and as the strings made from them.
    ///
    /// A client sends much the same fields in the same order on every request (the same provider token,
    /// topic and content type), so most fields reuse strings made before instead of allocating and
    /// validating new ones, and captures that keep requests share them.
    private var recentFields: [RecentField] = []
    private static let maxRecentFields = 32

    private struct RecentField {
        var name: [UInt8]
        var value: [UInt8]
        var nameString: String
        var valueString: String
    }

    private func strings(
        ofField position: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> (String, String) {
        if position < recentFields.count {
            let hit = recentFields.withUnsafeBufferPointer { fields in
                Self.equal(fields[position].name, name) && Self.equal(fields[position].value, value)
            }
            if hit { return (recentFields[position].nameString, recentFields[position].valueString) }
        }
        let field = RecentField(
            name: Array(name), value: Array(value), nameString: String(decoding: name, as: UTF8.self),
            valueString: String(decoding: value, as: UTF8.self))
        if position < recentFields.count {
            recentFields[position] = field
        } else if position == recentFields.count && position < Self.maxRecentFields {
            recentFields.append(field)
        }
        return (field.nameString, field.valueString)
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0, let bBase = b.baseAddress else { return true }
        return a.withUnsafeBufferPointer { memcmp($0.baseAddress!, bBase, b.count) == 0 }
    }

    fileprivate func dataChunk(streamID: Int32, _ data: UnsafeBufferPointer<UInt8>) {
        withStream(streamID) { dataChunk(of: $0, data) }
    }

    private func dataChunk(of stream: HTTP2Stream, _ data: UnsafeBufferPointer<UInt8>) {
        guard !stream.dispatched, !stream.bodyTooLarge else { return }
        let received = stream.sharesBodyBase ? stream.sharedBodyCount : stream.body.count
        if received + data.count > maxBodyBytes {
            stream.bodyTooLarge = true
            stream.body = []
            stream.bodyBase = []
            completed.append(stream)  // answered 413 right away; the rest of the body is dropped
            stream.dispatched = true
            return
        }
        if stream.sharesBodyBase {
            let base = stream.bodyBase
            let offset = stream.sharedBodyCount
            let same =
                offset + data.count <= base.count
                && (data.isEmpty
                    || base.withUnsafeBufferPointer {
                        memcmp($0.baseAddress! + offset, data.baseAddress!, data.count) == 0
                    })
            if same {
                stream.sharedBodyCount += data.count
                return
            }
            stream.sharesBodyBase = false
            stream.body = Array(base[0..<offset])
            stream.bodyBase = []
        }
        stream.body.append(contentsOf: data)
    }

    /// The body of the last request on this connection that had one.
    ///
    /// A client pushing one payload again and again sends the same bytes on every stream; a stream
    /// whose bytes turn out equal (compared as they arrive) takes this array instead of building its
    /// own: no allocation or copy per request, and captures that keep the requests share one body.
    private var previousBody: [UInt8] = []

    /// The stream ended: settles its body and remembers it for the next.
    private func finishBody(_ stream: HTTP2Stream) {
        if stream.sharesBodyBase {
            stream.sharesBodyBase = false
            stream.body =
                stream.sharedBodyCount == stream.bodyBase.count
                ? stream.bodyBase : Array(stream.bodyBase[0..<stream.sharedBodyCount])
            stream.bodyBase = []
        }
        if !stream.body.isEmpty { previousBody = stream.body }
    }

    fileprivate func frameReceived(type: UInt8, flags: UInt8, streamID: Int32) {
        guard type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue) else { return }
        withStream(streamID) { frameReceived(type: type, flags: flags, of: $0) }
    }

    private func frameReceived(type: UInt8, flags: UInt8, of stream: HTTP2Stream) {
        guard !stream.dispatched else { return }
        if type == UInt8(NGHTTP2_HEADERS.rawValue) { finishHeaderBlock(stream) }
        let endStream = flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        if endStream || (type == UInt8(NGHTTP2_HEADERS.rawValue) && stream.headersTooLarge) {
            if stream.headersTooLarge { stream.dispatched = true }
            finishBody(stream)
            completed.append(stream)
        }
    }

    fileprivate func streamClosed(streamID: Int32) {
        if recentStream?.id == streamID { recentStream = nil }
        guard let stream = lookUp(streamID) else { return }
        remove(stream)
        if stream.awaitingHandler { awaitingHandler -= 1 }
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

/// The fields of a header block as bytes, in order, in one buffer.
struct HeaderBlockBytes {
    private var bytes: [UInt8] = []
    private var spans: [(name: Int, nameCount: Int, valueCount: Int)] = []
    /// What the stream made of the block's pseudo-headers (set by whoever keeps the block).
    var method = ""
    var path = ""
    var authority: String?

    var count: Int { spans.count }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        spans.append((bytes.count, name.count, value.count))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: value)
    }

    /// Whether field `k` has these bytes.
    func matches(_ k: Int, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
        spans.withUnsafeBufferPointer { spans in
            guard k < spans.count else { return false }
            let span = spans[k]
            guard span.nameCount == name.count, span.valueCount == value.count else { return false }
            return bytes.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress! + span.name
                return (name.isEmpty || memcmp(base, name.baseAddress!, name.count) == 0)
                    && (value.isEmpty || memcmp(base + name.count, value.baseAddress!, value.count) == 0)
            }
        }
    }

    /// Calls `body` with field `k`'s name and value.
    func withField(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        let span = spans[k]
        bytes.withUnsafeBufferPointer { bytes in
            body(
                UnsafeBufferPointer(rebasing: bytes[span.name..<span.name + span.nameCount]),
                UnsafeBufferPointer(
                    rebasing: bytes[span.name + span.nameCount..<span.name + span.nameCount + span.valueCount]))
        }
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
    withOwner(user) {
        $0.header(
            streamID: frame.pointee.hd.stream_id, name: UnsafeBufferPointer(start: name, count: namelen),
            value: UnsafeBufferPointer(start: value, count: valuelen))
    }
    return 0
}

private let onFrameRecv: nghttp2_on_frame_recv_callback = { _, frame, user in
    guard let frame else { return 0 }
    withOwner(user) {
        $0.frameReceived(
            type: frame.pointee.hd.type, flags: frame.pointee.hd.flags, streamID: frame.pointee.hd.stream_id)
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
