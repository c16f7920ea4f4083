import CCurl

/// What became of one transfer: the response or error, and when its request went out.
struct ClientOutcome: Sendable {
    var result: Result<ClientResponse, ClientError>
    /// `CLOCK_MONOTONIC` ns when the request headers went out; nil when they never did.
    var sentAtNs: UInt64?
    /// Wall clock ms when the request headers went out; nil when they never did.
    var sentAtMs: Int64?
}

/// One request on its way through libcurl: the one owner of its easy handle, header list and error
/// buffer, and of what the callbacks collect.
final class ClientTransfer: @unchecked Sendable {
    // @unchecked: built on the caller's thread, handed to the loop thread through the loop's inbox
    // Mutex, and from then on touched only there (libcurl runs the callbacks on that thread); what it
    // collected leaves as a `ClientOutcome` value.
    let easy: UnsafeMutableRawPointer
    let request: ClientRequest
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var responseHead = ClientResponseHead()
    private var responseBody: [UInt8] = []
    private var addedAtNs: UInt64 = 0
    private var addedAtMs: Int64 = 0
    private var sentAtNs: UInt64?
    private var sentAtMs: Int64?
    /// Set for racing requests before submission; see `ClientRaceGate`.
    var gate: ClientRaceGate?
    private var leftGate = false
    private var heldByGate = false

    init(request: ClientRequest, configuration: HTTPClient.Configuration) throws(ClientError) {
        ClientCurlGlobal.initialize()
        guard let easy = curl_easy_init() else {
            throw ClientError(
                kind: .other, message: "libcurl could not make an easy handle (out of memory?)", url: request.url,
                operation: "curl_easy_init")
        }
        self.easy = easy
        self.request = request
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // deinit runs if this throws: every stored property is set by now.
        try configure(configuration)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    // MARK: Loop-thread side

    /// Points the callbacks' user data at `context` (this transfer, retained by the loop while the easy
    /// handle is in the multi handle) and stamps the time it enters the multi handle.
    func attach(context: UnsafeMutableRawPointer) throws(ClientError) {
        for option in [CURLOPT_WRITEDATA, CURLOPT_HEADERDATA, CURLOPT_DEBUGDATA, CURLOPT_PRIVATE] {
            try set(option, pointer: UnsafeRawPointer(context))
        }
        addedAtNs = ClientClock.monotonicNs()
        addedAtMs = ClientClock.wallMs()
    }

    /// Counts this transfer as gone out at its race gate (once), and stops being held there.
    func leaveGate() {
        guard let gate else { return }
        if !leftGate {
            leftGate = true
            gate.requestLeft()
        }
        if heldByGate {
            heldByGate = false
            gate.forget(self)
        }
    }

    /// Resumes a transfer the race gate held; its held response is delivered from here on.
    func resumeFromGate() {
        heldByGate = false
        _ = curl_easy_pause(easy, Int32(CURLPAUSE_CONT))
    }

    /// An outcome for a transfer that ended without libcurl finishing it.
    func outcome(failing kind: ClientError.Kind, _ message: String) -> ClientOutcome {
        ClientOutcome(
            result: .failure(ClientError(kind: kind, message: message, url: request.url, operation: operation)),
            sentAtNs: sentAtNs, sentAtMs: sentAtMs)
    }

    /// The outcome once libcurl reports the transfer done with `code`.
    func outcome(code: CURLcode) -> ClientOutcome {
        let receivedAtMs = ClientClock.wallMs()
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let error = ClientError(code: code, detail: detail, url: request.url, operation: operation)
            return ClientOutcome(result: .failure(error), sentAtNs: sentAtNs, sentAtMs: sentAtMs)
        }
        let timings = ClientTimings(
            nameLookup: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: seconds(CURLINFO_APPCONNECT_TIME_T), preTransfer: seconds(CURLINFO_PRETRANSFER_TIME_T),
            startTransfer: seconds(CURLINFO_STARTTRANSFER_TIME_T), total: seconds(CURLINFO_TOTAL_TIME_T))
        // The debug callback sees the headers leave; should it not have fired, pre-transfer time is the
        // closest libcurl gets.
        let preTransferNs = UInt64(max(0, timings.preTransfer) * 1e9)
        let sentNs = sentAtNs ?? addedAtNs + preTransferNs
        let sentMs = sentAtMs ?? addedAtMs + Int64(preTransferNs / 1_000_000)
        let response = ClientResponse(
            status: info(CURLINFO_RESPONSE_CODE), headers: responseHead.headers, body: responseBody,
            version: info(CURLINFO_HTTP_VERSION) == Int(CURL_HTTP_VERSION_2_0) ? .http2 : .http1_1,
            timings: timings, sentAtMs: sentMs, receivedAtMs: receivedAtMs, sentAtMonotonicNs: sentNs,
            connectionReused: info(CURLINFO_NUM_CONNECTS) == 0, localPort: info(CURLINFO_LOCAL_PORT),
            remoteIP: string(CURLINFO_PRIMARY_IP), remotePort: info(CURLINFO_PRIMARY_PORT))
        return ClientOutcome(result: .success(response), sentAtNs: sentNs, sentAtMs: sentMs)
    }

    // MARK: Callbacks (loop thread)

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        responseBody.append(contentsOf: bytes)
    }

    /// Returns false to pause the transfer: an HTTP/1.x status line while the race gate is closed.
    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let gate, !gate.isOpen, bytes.starts(with: "HTTP/1".utf8) {
            if !heldByGate {
                heldByGate = true
                gate.hold(self)
            }
            return false
        }
        responseHead.take(line: bytes)
        return true
    }

    fileprivate func requestHeadersWentOut() {
        if sentAtNs == nil {
            sentAtNs = ClientClock.monotonicNs()
            sentAtMs = ClientClock.wallMs()
            leaveGate()
        }
    }

    // MARK: Setup (caller's thread)

    private var operation: String { "\(request.method) request" }

    private func configure(_ configuration: HTTPClient.Configuration) throws(ClientError) {
        let r = request
        try set(CURLOPT_URL, r.url)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        // Signals for DNS timeouts are not thread-safe; the loop thread must never see one.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
        try set(CURLOPT_USERAGENT, configuration.userAgent)
        try set(CURLOPT_TIMEOUT_MS, milliseconds(r.timeoutSeconds ?? configuration.timeoutSeconds))
        try set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeoutSeconds))
        let (version, mayMultiplex) = versionChoice(r.httpVersion ?? configuration.httpVersion)
        try set(CURLOPT_HTTP_VERSION, version)
        // Wait for a connection that may multiplex rather than open another one: this is what keeps
        // concurrent HTTP/2 requests to one host on one connection. Only where HTTP/2 is possible: for
        // HTTP/1.1 it would make concurrent requests queue for one connection.
        try set(CURLOPT_PIPEWAIT, mayMultiplex ? 1 : 0)
        if version == Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE) && !ClientCurlGlobal.reusesPriorKnowledgeConnections {
            // Work around curl/curl#10634: a connection of its own, closed afterwards.
            try set(CURLOPT_PIPEWAIT, 0)
            try set(CURLOPT_FRESH_CONNECT, 1)
            try set(CURLOPT_FORBID_REUSE, 1)
        }
        if r.freshConnection { try set(CURLOPT_FRESH_CONNECT, 1) }
        if let caFile = configuration.caFile { try set(CURLOPT_CAINFO, caFile) }
        if configuration.insecureSkipVerify {
            try set(CURLOPT_SSL_VERIFYPEER, 0)
            try set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        let sendsBody = try configureMethodAndBody()
        try configureHeaders(sendsBody: sendsBody)
        try check(rc_curl_easy_setopt_write(easy, CURLOPT_WRITEFUNCTION, clientWriteBody), CURLOPT_WRITEFUNCTION)
        try check(rc_curl_easy_setopt_write(easy, CURLOPT_HEADERFUNCTION, clientWriteHeader), CURLOPT_HEADERFUNCTION)
        // The debug callback is how we see the moment the request headers leave; it needs VERBOSE.
        try check(rc_curl_easy_setopt_debug(easy, CURLOPT_DEBUGFUNCTION, clientDebug), CURLOPT_DEBUGFUNCTION)
        try set(CURLOPT_VERBOSE, 1)
    }

    /// Returns whether a body is sent.
    private func configureMethodAndBody() throws(ClientError) -> Bool {
        let r = request
        let method = r.method.uppercased()
        if method == "HEAD" {
            try set(CURLOPT_NOBODY, 1)
            return false
        }
        if !r.body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) {
            try check(
                rc_curl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(r.body.count)),
                CURLOPT_POSTFIELDSIZE_LARGE)
            // COPYPOSTFIELDS copies the bytes (POSTFIELDS would not); a NULL pointer would mean "read from
            // stdin", so an empty body still passes a valid address.
            let bytes: [UInt8] = r.body.isEmpty ? [0] : r.body
            let code = bytes.withUnsafeBytes { rc_curl_easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            try check(code, CURLOPT_COPYPOSTFIELDS)
            if r.method != "POST" { try set(CURLOPT_CUSTOMREQUEST, r.method) }
            return true
        }
        try set(CURLOPT_HTTPGET, 1)
        if r.method != "GET" { try set(CURLOPT_CUSTOMREQUEST, r.method) }
        return false
    }

    private func configureHeaders(sendsBody: Bool) throws(ClientError) {
        // libcurl sends header lines as given: a CR or LF would smuggle in fields or a second request.
        for field in request.headers {
            let badName = field.name.isEmpty || field.name.utf8.contains { $0 <= 32 || $0 == UInt8(ascii: ":") }
            if badName || field.value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) {
                throw ClientError(
                    kind: .invalidRequest, message: "header field \"\(field.name)\" has a forbidden character",
                    url: request.url, operation: operation)
            }
        }
        var lines = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        // libcurl would otherwise add `Expect: 100-continue` to larger bodies (a round trip of delay,
        // fatal to races) and a form content type the caller never asked for.
        if request.headers["expect"] == nil { lines.append("Expect:") }
        if sendsBody && request.headers["content-type"] == nil { lines.append("Content-Type:") }
        for line in lines {
            guard let list = curl_slist_append(headerList, line) else {
                throw ClientError(
                    kind: .other, message: "could not add header line (out of memory?)", url: request.url,
                    operation: "curl_slist_append")
            }
            headerList = list
        }
        try set(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(headerList))
    }

    /// libcurl's `CURL_HTTP_VERSION_*` for `version`, and whether the request may end up on HTTP/2.
    private func versionChoice(_ version: ClientHTTPVersion) -> (code: Int, mayMultiplex: Bool) {
        let plain = request.url.lowercased().hasPrefix("http://")
        switch version {
        case .http1_1:
            return (Int(CURL_HTTP_VERSION_1_1), false)
        case .automatic:
            return plain ? (Int(CURL_HTTP_VERSION_1_1), false) : (Int(CURL_HTTP_VERSION_2TLS), true)
        case .http2:
            return (Int(plain ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : CURL_HTTP_VERSION_2_0), true)
        }
    }

    // MARK: libcurl calls

    private func set(_ option: CURLoption, _ value: Int) throws(ClientError) {
        try check(rc_curl_easy_setopt_long(easy, option, value), option)
    }

    /// libcurl copies string options, so the C string need only live for the call.
    private func set(_ option: CURLoption, _ value: String) throws(ClientError) {
        try check(value.withCString { rc_curl_easy_setopt_ptr(easy, option, $0) }, option)
    }

    private func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(ClientError) {
        try check(rc_curl_easy_setopt_ptr(easy, option, pointer), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(ClientError) {
        guard code == CURLE_OK else {
            throw ClientError(code: code, url: request.url, operation: "curl_easy_setopt(\(option.rawValue))")
        }
    }

    private func info(_ item: CURLINFO) -> Int {
        var value = 0
        _ = rc_curl_easy_getinfo_long(easy, item, &value)
        return value
    }

    private func seconds(_ item: CURLINFO) -> Double {
        var micros: curl_off_t = 0
        _ = rc_curl_easy_getinfo_off(easy, item, &micros)
        return Double(micros) / 1_000_000
    }

    private func string(_ item: CURLINFO) -> String {
        var value: UnsafeMutablePointer<CChar>?
        _ = rc_curl_easy_getinfo_string(easy, item, &value)
        return value.map { String(cString: $0) } ?? ""
    }

    private func milliseconds(_ seconds: Double) -> Int { max(1, Int((seconds * 1000).rounded())) }
}

// MARK: - C callbacks
// `context` is the transfer, retained by `ClientMultiLoop` from `curl_multi_add_handle` until
// `curl_multi_remove_handle`, the only span in which libcurl calls these.

private func clientWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<ClientTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
}

private func clientWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<ClientTransfer>.fromOpaque(context).takeUnretainedValue()
    let taken = transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
    // libcurl keeps the line and hands it over again once resumed.
    return taken ? size * count : Int(CURL_WRITEFUNC_PAUSE)
}

private func clientDebug(
    _ handle: UnsafeMutableRawPointer?, _ type: curl_infotype, _ data: UnsafeMutablePointer<CChar>?, _ size: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int32 {
    if type == CURLINFO_HEADER_OUT, let context {
        Unmanaged<ClientTransfer>.fromOpaque(context).takeUnretainedValue().requestHeadersWentOut()
    }
    return 0
}
