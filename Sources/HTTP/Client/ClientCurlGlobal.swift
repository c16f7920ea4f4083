import CCurl

/// libcurl's process-wide setup.
enum ClientCurlGlobal {
    /// `curl_global_init` must run before other libcurl calls and, in older builds, not concurrently
    /// with anything: a static `let` runs it exactly once, thread-safely.
    private static let initCode: UInt32 = curl_global_init(Int(CURL_GLOBAL_ALL)).rawValue

    static func initialize() { _ = initCode }

    /// libcurl before 8.0.0 fails every reuse of an HTTP/2 prior-knowledge (h2c) connection with
    /// "Error in the HTTP2 framing layer" (curl/curl#10634, fixed in 8.0.0); Debian 12 ships 7.88.1.
    static let reusesPriorKnowledgeConnections: Bool = {
        initialize()
        return rc_curl_version_info().pointee.version_num >= 0x08_00_00
    }()
}
