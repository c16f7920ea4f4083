import CLinux
import Dispatch
import Glibc
import Synchronization

/// An HTTP/1.1 and HTTP/2 server (TLS with ALPN, or plain with h2 prior knowledge) that hands every
/// complete request to an `HTTPHandler` and can misbehave on purpose through `ConnectionDirective`.
public final class HTTPServer: Sendable {
    /// How a server listens and what it tolerates.
    public struct Configuration: Sendable {
        /// The address to bind: an IPv4 or IPv6 literal (`localhost` means 127.0.0.1, `*` every IPv4 address).
        public var host: String
        /// The port to bind; 0 picks a free one (read it back from `HTTPServer.port`).
        public var port: Int
        /// TLS settings; nil serves plain HTTP/1.1 and h2c with prior knowledge.
        public var tls: TLSConfiguration?
        /// The largest request header block accepted (431 beyond).
        public var maxHeaderBytes: Int
        /// The largest request body accepted (413 beyond).
        public var maxBodyBytes: Int
        /// SETTINGS_MAX_CONCURRENT_STREAMS announced to every HTTP/2 client.
        public var initialMaxConcurrentStreams: UInt32
        /// Connections with nothing in flight and no traffic for this long are closed; so are connections
        /// whose queued output has not moved for this long (a peer that stopped reading).
        public var idleTimeoutSeconds: Double
        /// An HTTP/1.1 connection whose unsent answers pile up beyond this (the client sends requests but
        /// does not read) is reset. HTTP/2 output is pulled from nghttp2 only as the socket drains, so
        /// there a client that stops reading is cut off by `idleTimeoutSeconds` instead.
        public var maxBufferedOutputBytes: Int
        /// How long `stop()` lets in-flight requests finish before closing everything.
        public var shutdownGraceSeconds: Double
        /// Event-loop threads, each with its own SO_REUSEPORT listener on the same port.
        public var loopCount: Int
        /// On a plain listener, answer `CONNECT` as an HTTPS forward proxy that terminates TLS itself;
        /// nil hands `CONNECT` requests to the handler like any other.
        public var connectTunnel: ConnectTunnel?
        /// SETTINGS_MAX_CONCURRENT_STREAMS by TLS server name (SNI, or the `CONNECT` host of a tunnel),
        /// lower-cased; names not listed get `initialMaxConcurrentStreams`.
        public var initialMaxConcurrentStreamsByServerName: [String: UInt32]
        /// The threads the handler runs on; servers whose handlers must not wait behind another's
        /// (providers behind the control API) get different ones.
        public var handlerExecutor: HandlerExecutor
        /// How long a client has to send a request head once it started one (HTTP/1.1; the first one
        /// counts from the connection's accept, TLS handshake included), the HTTP/2 connection preface,
        /// or an HTTP/2 header block once begun: a deadline that arriving bytes do not extend, unlike
        /// `idleTimeoutSeconds` (as nginx's `client_header_timeout`). HTTP/1.1 clients past it get 408,
        /// HTTP/2 clients GOAWAY; others are closed.
        public var requestHeadTimeoutSeconds: Double
        /// Once a request head is in, how long its body may take as a whole (HTTP/1.1 `content-length` or
        /// chunked; an HTTP/2 stream's DATA until END_STREAM): a deadline that arriving bytes do not extend.
        /// With `requestBodyReadTimeoutSeconds`, nginx's `client_body_timeout`, plus a total. HTTP/1.1 clients
        /// past either get 408 and a close; an HTTP/2 stream is reset with CANCEL (the connection gets
        /// GOAWAY when nothing else is on it). The clocks stop while an HTTP/1.1 connection waits on the
        /// handler for an earlier request.
        public var requestBodyTimeoutSeconds: Double
        /// The longest silence between two reads of a request body (see `requestBodyTimeoutSeconds`).
        public var requestBodyReadTimeoutSeconds: Double
        /// The most connections the listener holds open at once (all its loops together), further bounded by
        /// `ConnectionPool` (its share of the process's descriptors). At the cap, a newcomer takes the place
        /// of the connection that has done least (a request trickling in longest, else the longest idle);
        /// when none can go, the newcomer is accepted and closed at once.
        public var maxConnections: Int
        /// Places of the process's `ConnectionPool` no other listener can take (the control API's, so a
        /// flood on the providers' listeners leaves it reachable); all listeners together reserve at most an
        /// eighth of the pool, first come first served.
        public var reservedConnections: Int
        /// The pool of places shared by the process's listeners; nil: `ConnectionPool.process`.
        public var connectionPool: ConnectionPool?

        /// Replaces `accept4` on the listener, for tests that make it fail (EMFILE) without
        /// exhausting the test process's descriptors.
        var acceptOverride: (@Sendable (_ listenFD: Int32) -> Int32)?

        public init(
            host: String = "127.0.0.1", port: Int = 0, tls: TLSConfiguration? = nil, maxHeaderBytes: Int = 16 * 1024,
            maxBodyBytes: Int = 1024 * 1024, initialMaxConcurrentStreams: UInt32 = 100,
            idleTimeoutSeconds: Double = 60, maxBufferedOutputBytes: Int = 8 * 1024 * 1024,
            shutdownGraceSeconds: Double = 1, loopCount: Int = 1, connectTunnel: ConnectTunnel? = nil,
            initialMaxConcurrentStreamsByServerName: [String: UInt32] = [:],
            handlerExecutor: HandlerExecutor = .shared, requestHeadTimeoutSeconds: Double = 30,
            requestBodyTimeoutSeconds: Double = 60, requestBodyReadTimeoutSeconds: Double = 30,
            maxConnections: Int = 10_000, reservedConnections: Int = 0, connectionPool: ConnectionPool? = nil
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
            self.initialMaxConcurrentStreams = initialMaxConcurrentStreams
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.maxBufferedOutputBytes = maxBufferedOutputBytes
            self.shutdownGraceSeconds = shutdownGraceSeconds
            self.loopCount = loopCount
            self.connectTunnel = connectTunnel
            self.initialMaxConcurrentStreamsByServerName = initialMaxConcurrentStreamsByServerName
            self.handlerExecutor = handlerExecutor
            self.requestHeadTimeoutSeconds = requestHeadTimeoutSeconds
            self.requestBodyTimeoutSeconds = requestBodyTimeoutSeconds
            self.requestBodyReadTimeoutSeconds = requestBodyReadTimeoutSeconds
            self.maxConnections = maxConnections
            self.reservedConnections = reservedConnections
            self.connectionPool = connectionPool
        }
    }

    private enum State {
        case idle
        case running([EventLoop], port: Int)
        case stopped
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: any HTTPHandler
    private let state = Mutex<State>(.idle)

    /// Creates a server; nothing is bound until `start()`.
    public init(configuration: Configuration = Configuration(), handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Creates a server answering with a closure.
    public convenience init(
        configuration: Configuration = Configuration(),
        _ handle: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.init(configuration: configuration, handler: ClosureHandler(handle))
    }

    deinit { stop() }

    /// Binds the listening socket(s) and starts the event-loop thread(s). Throws on bind or TLS errors.
    public func start() throws {
        DescriptorLimit.raise()
        try state.withLock { state in
            guard case .idle = state else {
                throw HTTPServerError(operation: "start", message: "the server was already started")
            }
            let tls = try configuration.tls.map { try TLSContext($0) }
            let tunnelTLS = try configuration.connectTunnel.map { try TLSContext($0.tls) }
            let count = max(1, configuration.loopCount)
            var loops: [EventLoop] = []
            let budget = ConnectionBudget(
                limit: configuration.maxConnections, reserved: configuration.reservedConnections,
                pool: configuration.connectionPool ?? .process)
            var port = configuration.port
            guard (0...65535).contains(port) else {
                throw HTTPServerError(operation: "start", message: "port \(port) is out of range")
            }
            // Literal addresses only, plus the two names everyone writes.
            let host =
                switch configuration.host {
                case "localhost": "127.0.0.1"
                case "", "*": "0.0.0.0"
                default: configuration.host
                }
            do {
                for _ in 0..<count {
                    let fd = rc_listen_tcp(host, Int32(port), 1024, count > 1 ? 1 : 0)
                    guard fd >= 0 else {
                        throw HTTPServerError.posix("listen on \(configuration.host):\(port)", -fd)
                    }
                    let loop: EventLoop
                    do {
                        loop = try EventLoop(
                            configuration: configuration, handler: handler, tls: tls, tunnelTLS: tunnelTLS,
                            listenFD: fd, budget: budget)
                    } catch {
                        close(fd)
                        throw error
                    }
                    port = loop.localPort
                    try loop.start()
                    loops.append(loop)
                }
            } catch {
                for loop in loops { loop.stopAndJoin() }
                throw error
            }
            state = .running(loops, port: port)
        }
    }

    /// The bound port (0 before `start()`).
    public var port: Int {
        state.withLock { state in
            if case .running(_, let port) = state { return port }
            return 0
        }
    }

    /// Stops accepting, sends GOAWAY to HTTP/2 clients, lets in-flight requests finish for
    /// `shutdownGraceSeconds`, closes everything and joins the loop thread(s). Safe to call twice.
    public func stop() {
        let loops: [EventLoop] = state.withLock { state in
            defer { state = .stopped }
            if case .running(let loops, _) = state { return loops }
            return []
        }
        for loop in loops { loop.inbox.post(.stop) }
        for loop in loops { loop.stopAndJoin() }
    }
}
