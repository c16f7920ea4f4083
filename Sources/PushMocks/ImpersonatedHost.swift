import HTTP

/// A real push-provider host name the mocks stand in for, and the mock that answers for it.
public enum ImpersonatedHost: String, Sendable, CaseIterable, Codable {
    case apnsProduction = "api.push.apple.com"
    case apnsSandbox = "api.sandbox.push.apple.com"
    /// The older name of the sandbox, still hard-coded by several widely used Python clients.
    case apnsDevelopment = "api.development.push.apple.com"
    case fcm = "fcm.googleapis.com"
    case oauth = "oauth2.googleapis.com"

    /// The DNS name.
    public var name: String { rawValue }

    /// The ports the real service listens on: 443, and also 2197 for APNs.
    public var ports: [Int] {
        switch self {
        case .apnsProduction, .apnsSandbox, .apnsDevelopment: [443, 2197]
        case .fcm, .oauth: [443]
        }
    }

    /// The APNs environment the host serves; nil for the Google hosts.
    public var apnsEnvironment: APNsEnvironment? {
        switch self {
        case .apnsProduction: .production
        case .apnsSandbox, .apnsDevelopment: .sandbox
        case .fcm, .oauth: nil
        }
    }

    /// Every name, space-separated, as an `/etc/hosts` line wants them.
    public static var allNames: String { allCases.map(\.name).joined(separator: " ") }

    /// The host a DNS name (any case, an optional trailing dot) or an authority (`name:port`) names.
    public init?(authority: some StringProtocol) {
        var host = Substring(authority)
        if let colon = host.utf8.firstIndex(of: UInt8(ascii: ":")) { host = host[..<colon] }
        if host.utf8.last == UInt8(ascii: ".") { host = host.dropLast() }
        guard Self.mayStart(host.utf8.first) else { return nil }
        for candidate in Self.allCases
        where candidate.rawValue.utf8.count == host.utf8.count
            && zip(candidate.rawValue.utf8, host.utf8).allSatisfy({ Self.asciiLower($1) == $0 })
        {
            self = candidate
            return
        }
        return nil
    }

    /// The real host `request` was addressed to: its `:authority` (or `host`), else the TLS server
    /// name, else the target of the `CONNECT` that opened its tunnel; nil when none names one.
    public static func addressed(by request: HTTPRequest) -> ImpersonatedHost? {
        if let authority = request.authorityOrHost, mayStart(authority.utf8.first),
            let host = ImpersonatedHost(authority: authority)
        {
            return host
        }
        if let name = request.connection.serverName, mayStart(name.utf8.first),
            let host = ImpersonatedHost(authority: name)
        {
            return host
        }
        if let tunnel = request.connection.tunnelAuthority, mayStart(tunnel.utf8.first) {
            return ImpersonatedHost(authority: tunnel)
        }
        return nil
    }

    /// False when a name starting with byte `first` cannot be one of the hosts. Checked on the `String`
    /// before the generic parse: this runs for every captured request, mostly for `127.0.0.1:PORT`.
    private static func mayStart(_ first: UInt8?) -> Bool {
        guard let first else { return false }
        let letter = first | 0x20
        return letter == UInt8(ascii: "a") || letter == UInt8(ascii: "f") || letter == UInt8(ascii: "o")
    }

    private static func asciiLower(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
    }
}
