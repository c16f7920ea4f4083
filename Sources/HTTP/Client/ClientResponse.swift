/// Where the time of one transfer went, in seconds from the transfer's start (libcurl's `*_TIME_T` values).
///
/// Phases a reused connection skipped are zero.
public struct ClientTimings: Sendable, Equatable {
    /// Until the host name was resolved.
    public var nameLookup: Double
    /// Until the TCP connection was established.
    public var connect: Double
    /// Until the TLS handshake finished (libcurl's "appconnect"); zero for plain HTTP.
    public var tlsHandshake: Double
    /// Until the request was about to be sent.
    public var preTransfer: Double
    /// Until the first response byte arrived.
    public var startTransfer: Double
    /// Until the transfer completed.
    public var total: Double

    public init(
        nameLookup: Double = 0, connect: Double = 0, tlsHandshake: Double = 0, preTransfer: Double = 0,
        startTransfer: Double = 0, total: Double = 0
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.preTransfer = preTransfer
        self.startTransfer = startTransfer
        self.total = total
    }
}

/// A complete response received by `HTTPClient`, with how and when it travelled.
public struct ClientResponse: Sendable {
    public var status: Int
    /// Response header fields in arrival order, names lowercased, without the status line.
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The protocol the response came over.
    public var version: HTTPVersion
    public var timings: ClientTimings
    /// Wall clock when the request headers went out, in milliseconds since the UNIX epoch.
    public var sentAtMs: Int64
    /// Wall clock when the response was complete, in milliseconds since the UNIX epoch.
    public var receivedAtMs: Int64
    /// Monotonic clock (`CLOCK_MONOTONIC`) when the request headers went out, in nanoseconds: compare
    /// send times of requests within this process.
    public var sentAtMonotonicNs: UInt64
    /// True when the request went over a connection opened earlier.
    public var connectionReused: Bool
    /// The client's port of the connection: equal ports mean a shared connection.
    public var localPort: Int
    /// The server's IP address.
    public var remoteIP: String
    /// The server's port.
    public var remotePort: Int

    public init(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], version: HTTPVersion = .http2,
        timings: ClientTimings = ClientTimings(), sentAtMs: Int64 = 0, receivedAtMs: Int64 = 0,
        sentAtMonotonicNs: UInt64 = 0, connectionReused: Bool = false, localPort: Int = 0, remoteIP: String = "",
        remotePort: Int = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.version = version
        self.timings = timings
        self.sentAtMs = sentAtMs
        self.receivedAtMs = receivedAtMs
        self.sentAtMonotonicNs = sentAtMonotonicNs
        self.connectionReused = connectionReused
        self.localPort = localPort
        self.remoteIP = remoteIP
        self.remotePort = remotePort
    }

    /// The body decoded as UTF-8 (invalid sequences replaced).
    public var bodyString: String { String(decoding: body, as: UTF8.self) }
}
