import HTTP

/// The handler behind the listeners that present the real host names: it hands each request to the
/// mock of the host it was addressed to (`ImpersonatedHost.addressed(by:)`), so pushes reach the same
/// mocks, fault plans and capture log as through the mocks' own URLs, and are judged just as strictly.
public struct ImpersonationRouter: HTTPImmediateHandler {
    public let providers: MockProviders
    /// The provider serving each host name.
    private let byHost: [String: any MockProvider]

    /// Creates a value from its parts.
    public init(providers: MockProviders) {
        self.providers = providers
        var byHost: [String: any MockProvider] = [:]
        for provider in providers.all {
            for host in provider.servedHosts where byHost[host.name] == nil { byHost[host.name] = provider }
        }
        self.byHost = byHost
    }

    /// Answers one request through the addressed host's mock, or refuses what no mock would get.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        switch route(request) {
        case .failure(let refusal): return refusal.response
        case .success(let provider): return await provider.handle(request)
        }
    }

    /// Answers on the event loop where the mock can (APNs without live fault plans) and for refusals.
    public func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
        switch route(request) {
        case .failure(let refusal): return refusal.response
        case .success(let provider): return (provider as? any HTTPImmediateHandler)?.respondImmediately(to: request)
        }
    }

    /// The addressed mock's change to the connection on arrival (APNs lifting its stream limit).
    public func directiveOnArrival(of request: HTTPRequest) -> ConnectionDirective? {
        guard case .success(let provider) = route(request) else { return nil }
        return (provider as? any HTTPImmediateHandler)?.directiveOnArrival(of: request)
    }

    /// A request no impersonated host can take, and why.
    struct Refusal: Error {
        var response: HTTPResponse
    }

    /// The mock of the host `request` is for, or the answer for a request that names none.
    func route(_ request: HTTPRequest) -> Result<any MockProvider, Refusal> {
        guard request.connection.isTLS else {
            // A plain request on the proxy port: an http:// URL through HTTP_PROXY, or a lost client.
            // Answered, then the connection closes, as for a refused CONNECT.
            var refusal = Refusal(
                response: .text(
                    403,
                    "ringcheck's push-host proxy only tunnels HTTPS: send CONNECT to one of "
                        + "\(ImpersonatedHost.allNames) on port 443 (set HTTPS_PROXY, not HTTP_PROXY); "
                        + "it never forwards requests to other hosts.\n"))
            refusal.response.directive = .goawayAfterResponse(errorCode: 0, debug: "")
            return .failure(refusal)
        }
        if let host = ImpersonatedHost.addressed(by: request), let provider = byHost[host.name] {
            return .success(provider)
        }
        let named = request.authorityOrHost ?? request.connection.serverName ?? "no host"
        return .failure(
            Refusal(
                response: .text(
                    421,
                    "ringcheck serves only \(ImpersonatedHost.allNames) here, and this request was addressed "
                        + "to \(Self.printable(named)); the mocks' own URLs are in the RINGCHECK_* settings.\n")))
    }

    /// `text` cut short and without control characters, to echo peer input safely.
    static func printable(_ text: String) -> String {
        let cleaned = String(
            text.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "'" + cleaned + "'"
    }

    /// What the proxy answers a `CONNECT` to `host:port`: nil for an impersonated host on one of its
    /// real ports, else 403 naming what is served. Nothing is ever forwarded.
    public static func connectDecision(host: String, port: Int) -> HTTPResponse? {
        if let served = ImpersonatedHost(authority: host) {
            if served.ports.contains(port) { return nil }
            return .text(
                403,
                "ringcheck's push-host proxy serves \(served.name) on port "
                    + "\(served.ports.map(String.init).joined(separator: " and ")) only, not \(port).\n")
        }
        return .text(
            403,
            "ringcheck's push-host proxy refuses CONNECT to \(printable(host + ":" + String(port))): it only serves "
                + "\(ImpersonatedHost.allNames) (port 443; APNs also 2197) from its mocks and never opens outside "
                + "connections.\n")
    }
}
