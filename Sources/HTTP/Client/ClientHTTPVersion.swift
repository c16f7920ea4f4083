/// Which HTTP version the client asks a server for.
public enum ClientHTTPVersion: String, Sendable, Codable {
    /// HTTP/1.1 only, over `http://` and `https://`.
    case http1_1
    /// HTTP/2: offered through ALPN over TLS (the server may still pick HTTP/1.1), spoken with
    /// prior knowledge (h2c, no upgrade) over plain `http://`.
    case http2
    /// HTTP/2 through ALPN over TLS when the server agrees, HTTP/1.1 over plain `http://`.
    case automatic
}
