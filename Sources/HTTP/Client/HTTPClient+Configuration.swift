extension HTTPClient {
    /// How an `HTTPClient` connects: trust, time limits, protocol and connection limits.
    public struct Configuration: Sendable {
        /// The `User-Agent` sent unless a request sets its own.
        public static let defaultUserAgent = "ringcheck/0.1.0"

        /// A PEM file of CA certificates to trust instead of the system store; nil trusts the system store.
        public var caFile: String?
        /// Skip verifying the server's certificate and host name. For poking at servers only, never for judging.
        public var insecureSkipVerify: Bool
        /// Default whole-transfer timeout (connecting, sending, waiting, receiving).
        public var timeoutSeconds: Double
        /// Timeout for establishing a connection (TCP and TLS).
        public var connectTimeoutSeconds: Double
        /// Default protocol preference; a request may override it.
        public var httpVersion: ClientHTTPVersion
        /// Most connections open to one host at a time; 0 for no limit. Extra transfers wait for a free one.
        public var maxConnectionsPerHost: Int
        /// How many idle connections the client keeps open for reuse.
        public var maxIdleConnections: Int
        /// The `User-Agent` header value.
        public var userAgent: String

        public init(
            caFile: String? = nil, insecureSkipVerify: Bool = false, timeoutSeconds: Double = 30,
            connectTimeoutSeconds: Double = 10, httpVersion: ClientHTTPVersion = .automatic,
            maxConnectionsPerHost: Int = 0, maxIdleConnections: Int = 64, userAgent: String = defaultUserAgent
        ) {
            self.caFile = caFile
            self.insecureSkipVerify = insecureSkipVerify
            self.timeoutSeconds = timeoutSeconds
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.httpVersion = httpVersion
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxIdleConnections = maxIdleConnections
            self.userAgent = userAgent
        }
    }
}
