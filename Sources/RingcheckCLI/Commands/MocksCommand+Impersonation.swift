import Conformance
import PushMocks

extension MocksCommand {
    // MARK: Impersonation

    /// `--impersonate`, `--impersonate-listen` and `--proxy-listen` as options; nil when none was given.
    static func impersonation(_ arguments: ParsedArguments) throws -> ImpersonationOptions? {
        let listens = arguments.all("impersonate-listen")
        let proxy = arguments.value("proxy-listen")
        guard arguments.flag("impersonate") || !listens.isEmpty || proxy != nil else { return nil }
        var options = ImpersonationOptions()
        if !listens.isEmpty {
            options.listen =
                listens == ["none"]
                ? [] : try listens.map { try address($0, option: "impersonate-listen") }
        }
        if let proxy { options.proxy = proxy == "none" ? nil : try address(proxy, option: "proxy-listen") }
        if options.listen.isEmpty && options.proxy == nil {
            throw UsageError(
                message: "--impersonate-listen none and --proxy-listen none leave nothing to impersonate with",
                command: "mocks")
        }
        return options
    }

    private static func address(_ text: String, option: String) throws -> ListenAddress {
        guard let address = ListenAddress(parsing: text) else {
            throw UsageError(
                message: "--\(option) takes ADDR:PORT with an IP address (127.0.0.1:443, [::1]:8443, 0.0.0.0:443) "
                    + "or 'none', not '\(text)'",
                command: "mocks")
        }
        return address
    }

    /// What to tell the user about the impersonation listeners: where they are and the lines to use.
    static func impersonationSummary(_ endpoints: ImpersonationEndpoints, _ settings: MockSettings) -> String {
        var out = "\nServing the real push host names (\(ImpersonatedHost.allNames)):\n"
        for address in endpoints.listen { out += "  TLS listener       \(address)\n" }
        if let proxy = endpoints.proxyURL {
            out += "  HTTPS proxy        \(proxy)  (CONNECT to those names only; every other host is refused)\n"
        }
        out += "\nAim a backend that hard-codes them here with one of:\n"
        if let hosts = endpoints.hostsLine, let first = endpoints.listen.first {
            out += "  /etc/hosts line    \(hosts)\n"
            out +=
                "  docker run         --add-host api.push.apple.com:host-gateway (one per name; compose: extra_hosts)\n"
            out +=
                "                     (a container reaches the host only if the listener is on 0.0.0.0 or the bridge address)\n"
            if first.port != 443 {
                out += "  (the listener is on port \(first.port), not 443: a hosts entry alone reaches it only "
                out += "when the client's URL names that port; e.g. curl --resolve \(endpoints.curlResolve[0]))\n"
            }
        }
        if let proxy = endpoints.proxyURL {
            out += "  proxy              export HTTPS_PROXY=\(proxy) https_proxy=\(proxy)\n"
        }
        let ca = settings.caFile
        out += "and trust the CA:    export NODE_EXTRA_CA_CERTS=\(ca) REQUESTS_CA_BUNDLE=\(ca) SSL_CERT_FILE=\(ca)\n"
        out +=
            "                     (Java: keytool -importcert -cacerts -alias ringcheck -file \(ca); docs/mocks-and-control-api.md has more)"
        return out
    }
}
