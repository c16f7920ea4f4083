/// An address and port to listen on, written `ADDR:PORT` (`127.0.0.1:443`, `[::1]:8443`, `0.0.0.0:443`).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// An IPv4 or IPv6 literal (`localhost` means 127.0.0.1).
    public var host: String
    /// 0 picks a free port.
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `ADDR:PORT`; nil unless the port is 0–65535 and the address is an IP literal or `localhost`.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") && host.count > 2 { host = String(host.dropFirst().dropLast()) }
        guard host == "localhost" || MockStack.isIPAddress(host) else { return nil }
        self.init(host: host, port: port)
    }

    /// `ADDR:PORT`, IPv6 in brackets.
    public var description: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}

/// Serving the real push host names (`api.push.apple.com`, `api.sandbox.push.apple.com`,
/// `fcm.googleapis.com`, `oauth2.googleapis.com`) from the mocks, for backends that hard-code them:
/// TLS listeners presenting a certificate for those names (reach them with an `/etc/hosts` entry or a
/// container's extra host), and an HTTPS forward proxy that answers `CONNECT` to those names itself
/// (reach it with `HTTPS_PROXY`). The backend must trust the ringcheck CA.
public struct ImpersonationOptions: Sendable, Equatable {
    /// The TLS listeners; each serves all four names, routed by `:authority`/`host` or SNI. Empty for
    /// the proxy alone. Port 443 is what a hosts entry needs; APNs clients may also use 2197.
    public var listen: [ListenAddress]
    /// Where the proxy listens (plain HTTP/1.1); nil for no proxy.
    public var proxy: ListenAddress?

    /// The defaults of `ringcheck mocks --impersonate`: 127.0.0.1:443 and a proxy on a free port.
    public init(
        listen: [ListenAddress] = [ListenAddress(host: "127.0.0.1", port: 443)],
        proxy: ListenAddress? = ListenAddress(host: "127.0.0.1", port: 0)
    ) {
        self.listen = listen
        self.proxy = proxy
    }
}

/// Where the impersonation listeners ended up (ports resolved), and how to aim a backend at them.
public struct ImpersonationEndpoints: Sendable, Equatable {
    /// The bound TLS listeners.
    public var listen: [ListenAddress]
    /// The bound proxy.
    public var proxy: ListenAddress?

    /// Creates a value from its parts.
    public init(listen: [ListenAddress], proxy: ListenAddress?) {
        self.listen = listen
        self.proxy = proxy
    }

    /// The proxy as a URL for `HTTPS_PROXY` (`http://127.0.0.1:PORT`).
    public var proxyURL: String? {
        proxy.map { "http://" + MockStack.urlHostLiteral($0.host) + ":\($0.port)" }
    }

    /// An `/etc/hosts` line sending every real name to the first listener's address.
    public var hostsLine: String? {
        guard let first = listen.first else { return nil }
        return "\(MockStack.urlHostLiteral(first.host).trimmingBrackets) \(ImpersonatedHost.allNames)"
    }

    /// curl `--resolve` arguments for each name on the first listener.
    public var curlResolve: [String] {
        guard let first = listen.first else { return [] }
        let ip = MockStack.urlHostLiteral(first.host)
        return ImpersonatedHost.allCases.map { "\($0.name):\(first.port):\(ip)" }
    }
}

extension String {
    fileprivate var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
