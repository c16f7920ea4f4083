import Glibc
import HTTP

extension MockStack {
    // MARK: Impersonation

    /// SETTINGS_MAX_CONCURRENT_STREAMS by name: APNs allows one stream until a valid provider token
    /// arrives (the mock raises it), Google does not limit a fresh connection so.
    static let impersonationStreamLimits: [String: UInt32] = Dictionary(
        uniqueKeysWithValues: ImpersonatedHost.allCases.compactMap { host in
            host.initialMaxConcurrentStreams.map { (host.name, $0) }
        })

    /// Starts the TLS listeners and the proxy that serve the real host names from `providers`.
    static func startImpersonation(
        _ options: ImpersonationOptions, tls: TLSConfiguration, providers: MockProviders, loopCount: Int,
        pool: ConnectionPool?
    ) throws -> (servers: [HTTPServer], endpoints: ImpersonationEndpoints) {
        let router = ImpersonationRouter(providers: providers)
        var servers: [HTTPServer] = []
        var endpoints = ImpersonationEndpoints(listen: [], proxy: nil)
        // One shape for both kinds: a TLS listener, or a plain one whose CONNECT tunnels carry the TLS.
        func serve(_ address: ListenAddress, proxy: Bool) throws -> ListenAddress {
            var configuration = HTTPServer.Configuration(
                host: address.host, port: address.port, loopCount: loopCount,
                initialMaxConcurrentStreamsByServerName: impersonationStreamLimits, connectionPool: pool)
            if proxy {
                configuration.connectTunnel = ConnectTunnel(tls: tls) { host, port in
                    ImpersonationRouter.connectDecision(host: host, port: port)
                }
            } else {
                configuration.tls = tls
            }
            let server = HTTPServer(configuration: configuration, handler: router)
            servers.append(server)
            try start(
                server, at: address, role: proxy ? "the push-host proxy" : "the push-host listener",
                option: proxy ? "--proxy-listen" : "--impersonate-listen")
            return ListenAddress(host: address.host, port: server.port)
        }
        do {
            for address in options.listen { endpoints.listen.append(try serve(address, proxy: false)) }
            if let address = options.proxy { endpoints.proxy = try serve(address, proxy: true) }
        } catch {
            for server in servers { server.stop() }
            throw error
        }
        return (servers, endpoints)
    }

    /// Starts `server`, turning a refused bind into an error that says what to do.
    private static func start(_ server: HTTPServer, at address: ListenAddress, role: String, option: String) throws {
        do {
            try server.start()
        } catch let error as HTTPServerError where error.code == Int(EACCES) || error.code == Int(EADDRINUSE) {
            let why =
                error.code == Int(EACCES)
                ? "permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE, e.g. "
                    + "'sudo setcap cap_net_bind_service=+ep $(command -v ringcheck)')"
                : "the address is already in use"
            let other = ListenAddress(host: address.host, port: address.port == 443 ? 8443 : 0)
            throw MockStackError(
                message: "cannot listen on \(address) for \(role): \(why). Choose another address, e.g. "
                    + "\(option) \(other) (then reach it with 'curl --resolve' or through the HTTPS proxy).")
        }
    }
}
