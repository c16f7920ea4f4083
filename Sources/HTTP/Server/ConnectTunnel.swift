/// How a plain HTTP/1.1 listener answers `CONNECT host:port`: as an HTTPS forward proxy that
/// terminates TLS itself and serves the tunnelled requests with the server's own handler. It never
/// opens a connection anywhere; a target it does not serve is refused with the answer `decide` gives.
public struct ConnectTunnel: Sendable {
    /// The certificate presented inside accepted tunnels (it must cover the names clients tunnel to).
    public var tls: TLSConfiguration
    /// Judges each `CONNECT` target: nil accepts it, a response refuses it (sent, then the connection
    /// closes). Runs on the event-loop thread: it must answer at once.
    public var decide: @Sendable (_ host: String, _ port: Int) -> HTTPResponse?

    public init(tls: TLSConfiguration, decide: @escaping @Sendable (_ host: String, _ port: Int) -> HTTPResponse?) {
        self.tls = tls
        self.decide = decide
    }

    /// The host (lower-cased, IPv6 without brackets) and port of an authority-form target
    /// (`api.push.apple.com:443`, `[::1]:8443`); nil when it is not one (RFC 9110 §9.3.6 requires the port).
    public static func authority(_ target: String) -> (host: String, port: Int)? {
        guard let colon = target.lastIndex(of: ":") else { return nil }
        let portText = target[target.index(after: colon)...]
        guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        var host = target[..<colon]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = host.dropFirst().dropLast()
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            guard !host.isEmpty, host.utf8.count <= 253,
                host.utf8.allSatisfy({ isRegNameByte($0) })
            else { return nil }
        }
        return (host.lowercased(), port)
    }

    /// Letters, digits, `-`, `.`, `_` and `~`: what DNS names and IPv4 literals are made of.
    private static func isRegNameByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
