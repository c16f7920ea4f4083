import HTTP

/// The OneSignal kit reference server: a conforming app server of the seed `onesignal-kit-voip.txt` on an
/// `HTTPServer`, sending through OneSignal (`OneSignalConfiguration.apiURL`) as the kit's helpers do.
public final class OneSignalServer: Sendable {
    /// How the server listens and what it sends through.
    public struct Options: Sendable {
        /// Address and port; port 0 picks a free one.
        public var host: String
        public var port: Int
        public var configuration: OneSignalConfiguration
        /// Event-loop threads of the HTTP server.
        public var loopCount: Int
        /// Where the server logs requests and sends (`-` for standard output); nil logs nothing.
        public var logFile: String?
        /// When set (`/unconfigured`), requests under this path prefix are served as by a second instance started
        /// without the app IDs and keys (same API URL and CA file): a target file's `unconfigured.baseURL`.
        public var unconfiguredPrefix: String?

        public init(
            host: String = "127.0.0.1", port: Int = 0, configuration: OneSignalConfiguration, loopCount: Int = 1,
            logFile: String? = nil
        ) {
            self.host = host
            self.port = port
            self.configuration = configuration
            self.loopCount = loopCount
            self.logFile = logFile
        }
    }

    public let options: Options
    public let sender: OneSignalSender
    /// The sender of the unconfigured twin (`Options.unconfiguredPrefix`), nil without one.
    public let unconfiguredSender: OneSignalSender?
    private let server: HTTPServer

    /// Wires the API and the sender; nothing runs until `start()`.
    public init(options: Options) throws {
        self.options = options
        let log = try options.logFile.map { try BackendLog(path: $0) }
        sender = try OneSignalSender(configuration: options.configuration, log: log)
        var api: any HTTPHandler = OneSignalAPI(sender: sender)
        if let prefix = options.unconfiguredPrefix {
            var off = options.configuration
            off.standardApp = nil
            off.voipApp = nil
            let twin = try OneSignalSender(configuration: off, log: log)
            unconfiguredSender = twin
            let configured = api
            let unconfigured = OneSignalAPI(sender: twin)
            api = ClosureHandler { request in
                guard request.path.hasPrefix(prefix + "/") else { return await configured.handle(request) }
                var inner = request
                inner.target = String(request.target.dropFirst(prefix.count))
                return await unconfigured.handle(inner)
            }
        } else {
            unconfiguredSender = nil
        }
        let handler: any HTTPHandler = log.map { LoggingHandler(inner: api, log: $0, logBodies: false) } ?? api
        server = HTTPServer(
            configuration: .init(host: options.host, port: options.port, loopCount: options.loopCount),
            handler: handler)
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

    /// Stops accepting requests and closes the OneSignal connections.
    public func stop() async {
        await server.stop()
        sender.shutdown()
        unconfiguredSender?.shutdown()
    }
}
