import CCurl

/// The one owner of a libcurl multi handle: the connection cache and HTTP/2 multiplexing live here,
/// and the sockets and timer libcurl asks to be watched (`sockets`), which outlive the handle.
final class ClientMultiHandle: @unchecked Sendable {
    // @unchecked: every use of `pointer` happens on the loop thread of the `ClientMultiLoop` that owns
    // this object (or in deinit, once that thread is gone); `sockets.wakeUp` may come from any thread.
    let pointer: UnsafeMutableRawPointer
    let sockets: ClientSocketWatch

    init(configuration: HTTPClient.Configuration) throws(ClientError) {
        ClientCurlGlobal.initialize()
        sockets = try ClientSocketWatch()
        guard let multi = curl_multi_init() else {
            throw ClientError(
                kind: .other, message: "libcurl could not make a multi handle (out of memory?)", url: "",
                operation: "curl_multi_init")
        }
        pointer = multi
        try sockets.install(on: multi)
        try set(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        try set(CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        // The default cache size follows the number of easy handles currently added, so warm HTTP/1.1
        // connections would be closed once their warm-up transfers are removed.
        try set(CURLMOPT_MAXCONNECTS, max(1, configuration.maxIdleConnections))
    }

    // libcurl reports the sockets it closes here to `sockets`, still alive until deinit's end.
    deinit { curl_multi_cleanup(pointer) }

    /// Makes the loop's wait in progress (or the next one) return at once. Any thread.
    func wakeUp() { sockets.wakeUp() }

    private func set(_ option: CURLMoption, _ value: Int) throws(ClientError) {
        let code = rc_curl_multi_setopt_long(pointer, option, value)
        guard code == CURLM_OK else {
            throw ClientError(multiCode: code, url: "", operation: "curl_multi_setopt(\(option.rawValue))")
        }
    }
}
