import HTTP

/// A real push-provider host name the mocks stand in for. Each provider declares its own
/// (`MockProvider.impersonatedHosts`); `allCases` is every registered provider's.
public struct ImpersonatedHost: Sendable, Hashable, CustomStringConvertible {
    /// The DNS name, lower case.
    public let name: String
    /// The ports the real service listens on: 443, and also 2197 for APNs.
    public let ports: [Int]
    /// SETTINGS_MAX_CONCURRENT_STREAMS of a fresh connection for this name, when the real service
    /// limits it (APNs: one stream until a valid provider token arrives).
    public let initialMaxConcurrentStreams: UInt32?

    /// Creates a value from its parts.
    public init(name: String, ports: [Int] = [443], initialMaxConcurrentStreams: UInt32? = nil) {
        self.name = name.lowercased()
        self.ports = ports
        self.initialMaxConcurrentStreams = initialMaxConcurrentStreams
    }

    public var description: String { name }

    /// Every host a registered provider serves.
    public static let allCases: [ImpersonatedHost] = MockProviders.impersonatedHosts

    /// Whether a name may start with each byte (lower-cased): what `mayStart` reads.
    private static let firstBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for host in allCases { if let b = host.name.utf8.first { table[Int(b)] = true } }
        return table
    }()

    /// Every name, space-separated, as an `/etc/hosts` line wants them.
    public static var allNames: String { allCases.map(\.name).joined(separator: " ") }

    /// The host a DNS name (any case, an optional trailing dot) or an authority (`name:port`) names.
    public init?(authority: some StringProtocol) {
        var host = Substring(authority)
        if let colon = host.utf8.firstIndex(of: UInt8(ascii: ":")) { host = host[..<colon] }
        if host.utf8.last == UInt8(ascii: ".") { host = host.dropLast() }
        guard Self.mayStart(host.utf8.first) else { return nil }
        for candidate in Self.allCases
        where candidate.name.utf8.count == host.utf8.count
            && zip(candidate.name.utf8, host.utf8).allSatisfy({ Self.asciiLower($1) == $0 })
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
        return firstBytes[Int(asciiLower(first))]
    }

    private static func asciiLower(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b | 0x20 : b
    }
}
