import CCurl

/// The one owner of a libcurl multi handle: the connection cache and HTTP/2 multiplexing live here.
final class ClientMultiHandle: @unchecked Sendable {
    // @unchecked: libcurl allows `curl_multi_wakeup` from any thread; every other use of `pointer`
    // happens on the loop thread of the `ClientMultiLoop` that owns this object.
    let pointer: UnsafeMutableRawPointer

    init(configuration: HTTPClient.Configuration) throws(ClientError) {
        ClientCurlGlobal.initialize()
        guard let multi = curl_multi_init() else {
            throw ClientError(
                kind: .other, message: "libcurl could not make a multi handle (out of memory?)", url: "",
                operation: "curl_multi_init")
        }
        pointer = multi
        try set(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        try set(CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        // The default cache size follows the number of easy handles currently added, so warm HTTP/1.1
        // connections would be closed once their warm-up transfers are removed.
        try set(CURLMOPT_MAXCONNECTS, max(1, configuration.maxIdleConnections))
    }

    deinit { curl_multi_cleanup(pointer) }

    /// Makes a `curl_multi_poll` in progress (or the next one) return at once. Any thread.
    func wakeUp() { _ = curl_multi_wakeup(pointer) }

    private func set(_ option: CURLMoption, _ value: Int) throws(ClientError) {
        let code = rc_curl_multi_setopt_long(pointer, option, value)
        guard code == CURLM_OK else {
            throw ClientError(multiCode: code, url: "", operation: "curl_multi_setopt(\(option.rawValue))")
        }
    }
}
