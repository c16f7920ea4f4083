import HTTP

/// The reference push service as a running service: a OneSignal-style push service of the seed
/// (`push-service-rest-api.txt`) on an `HTTPServer`. Apps register devices, the app server posts
/// notifications and calls; each is queued durably in SQLite, one delivery per device, and sent by a
/// `DeliveryWorker` through the same provider code as the Callx reference (`ProviderPushTransport`).
public final class PushServiceServer: Sendable {
    /// How the server listens and what it runs.
    public struct Options: Sendable {
        /// Address and port (plain HTTP/1.1 and h2c); port 0 picks a free one.
        public var host: String
        public var port: Int
        public var configuration: PushServiceConfiguration
        /// Where devices, notifications and the delivery queue live.
        public var database: Database.Location
        /// Attempts and backoff for pushes that fail with 429, 5xx or no answer.
        public var retryPolicy: PushRetryPolicy
        /// Event-loop threads of the HTTP server.
        public var loopCount: Int
        /// Where the service logs requests and push attempts (`-` for standard output); nil logs nothing.
        public var logFile: String?

        public init(
            host: String = "127.0.0.1", port: Int = 0, configuration: PushServiceConfiguration,
            database: Database.Location = .inMemory,
            retryPolicy: PushRetryPolicy = PushRetryPolicy(maxAttempts: 5, initialBackoffMs: 500, maxBackoffMs: 5_000),
            loopCount: Int = 1, logFile: String? = nil
        ) {
            self.host = host
            self.port = port
            self.configuration = configuration
            self.database = database
            self.retryPolicy = retryPolicy
            self.loopCount = loopCount
            self.logFile = logFile
        }
    }

    public let options: Options
    public let api: PushServiceAPI
    public let store: PushServiceStore
    public let transport: any PushTransport
    let worker: DeliveryWorker
    private let server: HTTPServer

    /// Wires the API, the store and the worker; nothing runs until `start()`. `fcmProjectID` defaults to
    /// the transport's own when it is a `ProviderPushTransport`.
    public init(
        options: Options, transport: any PushTransport, fcmProjectID: String? = nil,
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) throws {
        self.options = options
        self.transport = transport
        let project = fcmProjectID ?? (transport as? ProviderPushTransport)?.fcmProjectID ?? "unset"
        let log = try options.logFile.map { try BackendLog(path: $0) }
        let store = try PushServiceStore(options.database)
        self.store = store
        let configuration = options.configuration
        worker = DeliveryWorker(
            store: store, transport: transport, policy: options.retryPolicy, defects: configuration.defects,
            clock: clock, log: log)
        let api = PushServiceAPI(
            configuration: configuration, store: store,
            builder: ServicePushBuilder(configuration: configuration, fcmProjectID: project), worker: worker,
            clock: clock, log: log)
        self.api = api
        // Bodies are never logged: registrations carry push tokens.
        let shaped: any HTTPHandler =
            configuration.apiShape == .reference
            ? api : PushServiceAlternateAPI(inner: api, keyedInstallations: configuration.apiShape == .alternateKeyed)
        let handler: any HTTPHandler = log.map { LoggingHandler(inner: shaped, log: $0, logBodies: false) } ?? shaped
        server = HTTPServer(
            configuration: .init(host: options.host, port: options.port, loopCount: options.loopCount),
            handler: handler)
    }

    /// A service sending real pushes with the given provider settings (whose bundle ID is the app's).
    public convenience init(options: Options, providers: PushProviderSettings) throws {
        try self.init(options: options, transport: try ProviderPushTransport(settings: providers))
    }

    /// Starts listening and sending (pending deliveries of an earlier run go out now).
    public func start() throws {
        try server.start()
        worker.start()
    }

    /// The port the API listens on (after `start()`).
    public var port: Int { server.port }

    /// `http://host:port`, for clients.
    public var baseURL: String {
        let host = options.host == "0.0.0.0" ? "127.0.0.1" : options.host
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Returns once no delivery is pending (each was accepted, refused or given up).
    public func waitUntilDeliveriesSettle() async {
        while (try? store.nextDueMs()) ?? nil != nil { try? await Task.sleep(for: .milliseconds(20)) }
    }

    /// Stops accepting requests and sending, and closes the provider connections.
    public func stop() async {
        await server.stop()
        await worker.stop()
        (transport as? ProviderPushTransport)?.shutdown()
    }
}
