/// The protocol a request arrived over.
public enum HTTPVersion: String, Sendable, Codable {
    case http1_1 = "HTTP/1.1"
    case http2 = "HTTP/2"
}

/// Where a request came from and how it arrived: what a mock needs to judge and record it.
public struct ConnectionInfo: Sendable, Equatable {
    /// A number unique to the connection within this process.
    public var id: UInt64
    /// The peer's address as `ip:port`.
    public var remoteAddress: String
    /// The local port the connection was accepted on.
    public var localPort: Int
    /// True when the connection is TLS.
    public var isTLS: Bool
    /// The ALPN protocol the client and server agreed on; nil when the client offered none.
    public var alpn: String?
    /// The TLS server name the client asked for (SNI), if any.
    public var serverName: String?
    /// The `host:port` of the `CONNECT` request that opened this tunnel, when the connection came
    /// through the server's HTTPS forward proxy (`HTTPServer.Configuration.connectTunnel`).
    public var tunnelAuthority: String?
    /// Where the server's accept of the connection falls in `ArrivalOrder` (0: not accepted by a server): the
    /// client was about to send the connection's first request by then (`HTTPRequest.opensConnection`).
    public var openedOrder: UInt64 = 0

    public init(
        id: UInt64, remoteAddress: String, localPort: Int, isTLS: Bool, alpn: String? = nil, serverName: String? = nil,
        tunnelAuthority: String? = nil
    ) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.isTLS = isTLS
        self.alpn = alpn
        self.serverName = serverName
        self.tunnelAuthority = tunnelAuthority
    }
}

/// One complete request as received by the server.
///
/// A value type whose fields but the stream ID and the arrival time live in one shared, immutable
/// object (`Head`): a request passes through the server's dispatch queue, the handler and the capture
/// that keeps it, and a copy of its strings and lists retained and released each of them every time.
public struct HTTPRequest: Sendable {
    /// The request but for its stream ID and arrival time; replaced whole when a field changes.
    final class Head: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }

        struct Fields: Sendable {
            var method: String
            var target: String
            var authority: String?
            var headers: HTTPHeaders
            var body: [UInt8]
            var version: HTTPVersion
            /// The connection, shared by its requests.
            var origin: Origin
        }
    }

    /// The connection a request arrived on and what tells whether its client is still there: one
    /// object a connection's requests share, where a copy of the connection's fields in every request
    /// retained and released each of its strings.
    final class Origin: Sendable {
        let connection: ConnectionInfo
        /// Set by the server; nil for requests made up elsewhere (tests, replays).
        let presence: ClientPresence?

        init(connection: ConnectionInfo, presence: ClientPresence?) {
            self.connection = connection
            self.presence = presence
        }
    }

    private(set) var head: Head

    /// Replaces the head with a copy whose fields `change` sets.
    private mutating func change(_ change: (inout Head.Fields) -> Void) {
        var fields = head.fields
        change(&fields)
        head = Head(fields)
    }

    public var method: String {
        get { head.fields.method }
        set { change { $0.method = newValue } }
    }
    /// The request target: path and query, as sent (`/3/device/abc?x=1`).
    public var target: String {
        get { head.fields.target }
        set { change { $0.target = newValue } }
    }
    /// `:authority` for HTTP/2, the `host` header for HTTP/1.1 (HTTP/2 clients may also send `host`).
    public var authority: String? {
        get { head.fields.authority }
        set { change { $0.authority = newValue } }
    }
    /// Header fields without HTTP/2 pseudo-headers.
    public var headers: HTTPHeaders {
        get { head.fields.headers }
        set { change { $0.headers = newValue } }
    }
    public var body: [UInt8] {
        get { head.fields.body }
        set { change { $0.body = newValue } }
    }
    public var version: HTTPVersion {
        get { head.fields.version }
        set { change { $0.version = newValue } }
    }
    public var connection: ConnectionInfo {
        get { head.fields.origin.connection }
        set { change { $0.origin = Origin(connection: newValue, presence: $0.origin.presence) } }
    }
    /// `connection.id`, read without copying the connection's other fields.
    public var connectionID: UInt64 { head.fields.origin.connection.id }
    /// The HTTP/2 stream ID, nil for HTTP/1.1.
    public var streamID: Int32?
    /// Wall-clock arrival of the complete request, in milliseconds since the UNIX epoch.
    public var arrivalMs: Int64
    /// Where the server's read of the complete request falls in `ArrivalOrder` (0: not read by a server).
    public var arrivalOrder: UInt64 = 0
    /// Whether this is the first request on its connection (HTTP/2 stream 1, an HTTP/1.1 connection's first):
    /// the one the client opened the connection to send, so it was on its way from the connection's accept on
    /// (`ConnectionInfo.openedOrder`).
    public var opensConnection = false

    public init(
        method: String, target: String, authority: String? = nil, headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = [], version: HTTPVersion = .http2,
        connection: ConnectionInfo = ConnectionInfo(id: 0, remoteAddress: "127.0.0.1:0", localPort: 0, isTLS: false),
        streamID: Int32? = nil, arrivalMs: Int64 = 0
    ) {
        self.init(
            method: method, target: target, authority: authority, headers: headers, body: body, version: version,
            origin: Origin(connection: connection, presence: nil), streamID: streamID, arrivalMs: arrivalMs)
    }

    /// A request as the server received it, from the connection `origin` (which tells whether its
    /// client is still there).
    init(
        method: String, target: String, authority: String?, headers: HTTPHeaders, body: [UInt8],
        version: HTTPVersion, origin: Origin, streamID: Int32?, arrivalMs: Int64
    ) {
        head = Head(
            Head.Fields(
                method: method, target: target, authority: authority, headers: headers, body: body, version: version,
                origin: origin))
        self.streamID = streamID
        self.arrivalMs = arrivalMs
    }

    /// True once nobody waits for this request's answer: its connection closed, the HTTP/2 client reset
    /// its stream, or the HTTP/1.1 client finished sending (FIN) before it was answered, which is how
    /// clients that give up close (nginx counts it as a client abort too). The server drops the answer
    /// of an abandoned request; a handler with long work to do checks this and stops early.
    public var isAbandoned: Bool { head.fields.origin.presence?.isAbandoned(stream: streamID) ?? false }

    /// The path without the query string.
    public var path: String { pathOf(target) }

    /// `authority`, or the `host` header when there is none.
    ///
    /// Spelled out rather than with `??`, whose autoclosure would copy the whole request (a retain and
    /// a release of each of its strings and lists) on every call.
    public var authorityOrHost: String? {
        if let authority = head.fields.authority { return authority }
        return head.fields.headers["host"]
    }

    /// The query parameters, percent-decoded; later duplicates win.
    public var query: [String: String] {
        guard let q = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: q)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = percentDecode(String(parts[0]))
            result[key] = parts.count > 1 ? percentDecode(String(parts[1])) : ""
        }
        return result
    }
}

/// `target` up to its first `?`.
///
/// Request targets are almost always ASCII, where a byte search finds what a `Character` search
/// finds without grapheme breaking; other text takes the `Character` search, which can differ when
/// a combining mark follows the `?`.
package func pathOf(_ target: String) -> String {
    var copy = target
    let q: Int?? = copy.withUTF8 { bytes in
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return .none }
        return .some(bytes.firstIndex(of: UInt8(ascii: "?")))
    }
    switch q {
    case .some(.none): return target
    case .some(.some(let q)): return String(target[..<target.utf8.index(target.utf8.startIndex, offsetBy: q)])
    case .none:
        if let q = target.firstIndex(of: "?") { return String(target[..<q]) }
        return target
    }
}

/// Decodes `%XX` escapes and `+` as space (form encoding); invalid escapes are kept as they are.
public func percentDecode(_ s: String) -> String {
    var out: [UInt8] = []
    let bytes = Array(s.utf8)
    var i = 0
    while i < bytes.count {
        let b = bytes[i]
        if b == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
            out.append(h << 4 | l)
            i += 3
        } else {
            out.append(b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            i += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}

private func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}
