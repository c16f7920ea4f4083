import HTTP
import Synchronization

/// The reference backend as a running service: the `CallxAPI` (or, with `apiShape` `.alternate`,
/// the `AlternateAPI`) on an `HTTPServer`, the push
/// worker sending the outbox, and the expiry sweeper that ends unanswered calls on time even
/// when no request arrives. With a file database, a restart picks up where the last process
/// stopped (pushes it was sending when it died are sent again).
public final class ReferenceBackendServer: Sendable {
    /// How the server listens and what it runs.
    public struct Options: Sendable {
        /// Address and port of the API (plain HTTP/1.1 and h2c); port 0 picks a free one.
        public var host: String
        public var port: Int
        /// The database: in memory, or a file that survives restarts.
        public var database: Database.Location
        public var configuration: ReferenceBackendConfiguration
        public var users: UserDirectory
        public var retryPolicy: PushRetryPolicy
        /// The longest the sweeper sleeps between looks for calls past their ring deadline.
        public var sweepIntervalMs: Int64
        /// Event-loop threads of the HTTP server.
        public var loopCount: Int
        /// Where the backend logs requests and push attempts (`-` for standard output); nil logs nothing.
        public var logFile: String?

        public init(
            host: String = "127.0.0.1", port: Int = 0, database: Database.Location = .inMemory,
            configuration: ReferenceBackendConfiguration = ReferenceBackendConfiguration(),
            users: UserDirectory = .testUsers, retryPolicy: PushRetryPolicy = PushRetryPolicy(),
            sweepIntervalMs: Int64 = 250, loopCount: Int = 1, logFile: String? = nil
        ) {
            self.host = host
            self.port = port
            self.database = database
            self.configuration = configuration
            self.users = users
            self.retryPolicy = retryPolicy
            self.sweepIntervalMs = sweepIntervalMs
            self.loopCount = loopCount
            self.logFile = logFile
        }
    }

    public let options: Options
    public let service: CallService
    public let worker: PushWorker
    public let transport: any PushTransport
    private let server: HTTPServer
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Opens the database and wires the API, worker and sweeper; nothing runs until `start()`.
    /// `messageSettings` defaults to the transport's own when it is a `ProviderPushTransport`.
    public init(
        options: Options, transport: any PushTransport, messageSettings: PushMessageSettings? = nil,
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) throws {
        self.options = options
        self.transport = transport
        // The defect keeps everything in memory, whatever the options say, so a restart starts empty.
        let forget = options.configuration.defects.contains(.forgetOnRestart)
        let store = try CallStore(forget ? .inMemory : options.database)
        service = CallService(store: store, users: options.users, configuration: options.configuration, clock: clock)
        let settings =
            messageSettings ?? (transport as? ProviderPushTransport)?.messageSettings
            ?? PushMessageSettings(fcmProjectID: "unset")
        let log = try options.logFile.map { try BackendLog(path: $0) }
        worker = PushWorker(
            service: service, transport: transport, settings: settings, policy: options.retryPolicy, log: log)
        if let providers = transport as? ProviderPushTransport { try Self.keepProviderToken(providers, in: store) }
        server = HTTPServer(
            configuration: .init(host: options.host, port: options.port, loopCount: options.loopCount),
            handler: Self.api(options.configuration.apiShape, service: service, log: log))
    }

    /// The HTTP API of the configured shape over `service`.
    static func api(_ shape: APIShape, service: CallService, log: BackendLog? = nil) -> any HTTPHandler {
        let api: any HTTPHandler
        switch shape {
        case .reference: api = CallxAPI(service: service)
        case .alternate: api = AlternateAPI(service: service)
        case .node: api = NodeShapeAPI(service: service)
        }
        guard let log else { return api }
        return LoggingHandler(
            inner: api, log: log, logBodies: service.configuration.defects.contains(.logPushSecrets))
    }

    /// A server sending real pushes with the given provider settings.
    public convenience init(options: Options, providers: PushProviderSettings) throws {
        try self.init(options: options, transport: try ProviderPushTransport(settings: providers))
    }

    /// Recovers pushes a previous process was sending, starts listening, the worker and the sweeper.
    public func start() throws {
        let now = service.clock()
        try service.store.transaction { tx in try tx.releaseInterruptedJobs(nowMs: now) }
        try server.start()
        let worker = self.worker
        let service = self.service
        let sweepMs = options.sweepIntervalMs
        tasks.withLock { tasks in
            tasks.append(Task { await worker.runPipelined() })
            tasks.append(Task { await Self.sweep(service, maxSleepMs: sweepMs) })
        }
    }

    /// The port the API listens on (after `start()`).
    public var port: Int { server.port }

    /// `http://host:port`, for clients.
    public var baseURL: String {
        let host = options.host == "0.0.0.0" ? "127.0.0.1" : options.host
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Stops accepting requests, then stops the worker and sweeper and waits for them. The worker's sends in
    /// flight finish and are recorded first, for up to its `stopGraceMs` (`PushWorker.runPipelined`): a push
    /// the provider accepted is not sent again by the next process.
    public func stop() async {
        await server.stop()
        let running = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
        (transport as? ProviderPushTransport)?.shutdown()
    }

    /// Ends ringing calls as their deadlines pass, independently of the worker (which may be
    /// waiting on a slow provider) and of requests.
    static func sweep(_ service: CallService, maxSleepMs: Int64) async {
        while !Task.isCancelled {
            _ = try? service.expireDueCalls()
            var sleepMs = maxSleepMs
            if let next = try? service.store.transaction({ tx in try tx.nextRingDeadlineMs() }) {
                sleepMs = min(max(next - service.clock() + 1, 1), maxSleepMs)
            }
            try? await Task.sleep(for: .milliseconds(sleepMs))
        }
    }
}

// MARK: - The APNs provider token across restarts

extension ReferenceBackendServer {
    /// Reuses the APNs provider token the last process signed (from the database) and saves each new
    /// one: APNs refuses a new token within 20 minutes of the previous one (TooManyProviderTokenUpdates),
    /// so a backend that restarts must not start over with a fresh token.
    static func keepProviderToken(_ providers: ProviderPushTransport, in store: CallStore) throws {
        let keyID = providers.providerTokens.key.keyID
        let saved = try store.transaction { tx in
            try tx.db.queryFirst("SELECT token, issued_at_ms FROM provider_tokens WHERE key_id = ?", [.text(keyID)])
        }
        providers.providerTokens.restore(token: saved?.string("token"), issuedAtMs: saved?.int64("issued_at_ms")) {
            token, issuedAtMs in
            _ = try? store.transaction { tx in
                try tx.db.execute(
                    "INSERT OR REPLACE INTO provider_tokens (key_id, token, issued_at_ms) VALUES (?, ?, ?)",
                    [.text(keyID), .text(token), .integer(issuedAtMs)])
            }
        }
    }
}

extension StoreTransaction {
    /// Returns jobs claimed by a worker that is gone (this process is starting) to the queue, due now.
    func releaseInterruptedJobs(nowMs: Int64) throws {
        _ = try db.execute(
            """
            UPDATE push_jobs SET status = 'pending', lease_until_ms = NULL, next_attempt_at_ms = ?1, updated_at_ms = ?1
            WHERE status = 'sending'
            """, [.integer(nowMs)])
    }

    /// The earliest ring deadline of a ringing call, if any.
    func nextRingDeadlineMs() throws -> Int64? {
        try db.queryFirst("SELECT min(expires_at_ms) AS t FROM calls WHERE state = 'ringing'")?.int64("t")
    }
}
