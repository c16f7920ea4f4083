import HTTP
import Synchronization

/// The wake-up reference backend as a running service: a conforming customer backend of the
/// DialStack seed (`dialstack-push-wakeup.txt`) on an `HTTPServer`. It takes the app's token
/// registrations, verifies DialStack's signed webhooks over the raw body and wakes the user's
/// devices through the same provider code as the Callx reference (`ProviderPushTransport`).
public final class DialStackServer: Sendable {
    /// How the server listens and what it runs.
    public struct Options: Sendable {
        /// Address and port (plain HTTP/1.1 and h2c); port 0 picks a free one.
        public var host: String
        public var port: Int
        public var configuration: DialStackConfiguration
        /// The accounts the app signs in with; a webhook's `data.user_id` is an account's `userId`.
        public var users: UserDirectory
        /// Attempts and backoff for pushes that fail with 429, 5xx or no answer.
        public var retryPolicy: PushRetryPolicy
        /// Event-loop threads of the HTTP server.
        public var loopCount: Int
        /// Where the backend logs requests and push attempts (`-` for standard output); nil logs nothing.
        public var logFile: String?

        public init(
            host: String = "127.0.0.1", port: Int = 0, configuration: DialStackConfiguration,
            users: UserDirectory = .testUsers, retryPolicy: PushRetryPolicy = PushRetryPolicy(), loopCount: Int = 1,
            logFile: String? = nil
        ) {
            self.host = host
            self.port = port
            self.configuration = configuration
            self.users = users
            self.retryPolicy = retryPolicy
            self.loopCount = loopCount
            self.logFile = logFile
        }
    }

    public let options: Options
    public let api: DialStackAPI
    public let transport: any PushTransport
    private let server: HTTPServer

    /// Wires the API and the sender; nothing runs until `start()`. `messageSettings` defaults to the
    /// transport's own when it is a `ProviderPushTransport`.
    public init(
        options: Options, transport: any PushTransport, messageSettings: PushMessageSettings? = nil,
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) throws {
        self.options = options
        self.transport = transport
        let settings =
            messageSettings ?? (transport as? ProviderPushTransport)?.messageSettings
            ?? PushMessageSettings(fcmProjectID: "unset")
        let log = try options.logFile.map { try BackendLog(path: $0) }
        let configuration = options.configuration
        let tokens = DialStackTokenStore()
        let sender = DialStackPushSender(
            transport: transport,
            builder: DialStackPushBuilder(
                settings: settings, wakeWindowSeconds: configuration.wakeWindowSeconds,
                defects: configuration.defects, callIdKey: configuration.callIdKey),
            policy: options.retryPolicy, tokens: tokens, configuration: configuration, clock: clock, log: log)
        let wakeUpHold = try configuration.dialStackAPI.map { try WakeUpHoldSwitch(access: $0, log: log) }
        let api = DialStackAPI(
            configuration: configuration, users: options.users, tokens: tokens, sender: sender,
            wakeUpHold: wakeUpHold, clock: clock, log: log)
        self.api = api
        // Bodies are never logged: registrations carry push tokens.
        let handler: any HTTPHandler = log.map { LoggingHandler(inner: api, log: $0, logBodies: false) } ?? api
        server = HTTPServer(
            configuration: .init(host: options.host, port: options.port, loopCount: options.loopCount),
            handler: handler)
    }

    /// A server sending real pushes with the given provider settings.
    public convenience init(options: Options, providers: PushProviderSettings) throws {
        try self.init(options: options, transport: try ProviderPushTransport(settings: providers))
    }

    /// Starts listening.
    public func start() throws { try server.start() }

    /// The port the API listens on (after `start()`).
    public var port: Int { server.port }

    /// `http://host:port`, for clients.
    public var baseURL: String {
        let host = options.host == "0.0.0.0" ? "127.0.0.1" : options.host
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// `baseURL` with the webhook path: where DialStack posts.
    public var webhookURL: String { baseURL + options.configuration.webhookPath }

    /// Returns once every push started so far is accepted, refused or given up.
    public func waitUntilPushesSettle() async { await api.sender.waitUntilIdle() }

    /// Stops accepting requests, cancels the pushes in flight and closes the provider connections.
    public func stop() async {
        await server.stop()
        await api.sender.stop()
        api.wakeUpHold?.shutdown()
        (transport as? ProviderPushTransport)?.shutdown()
    }
}
