/// A request for `HTTPClient` to send.
public struct ClientRequest: Sendable {
    /// The method, sent as given (`GET`, `POST`, `PUT`, …).
    public var method: String
    /// The absolute `http://` or `https://` URL.
    public var url: String
    /// Header fields to send; these replace libcurl's defaults of the same name.
    public var headers: HTTPHeaders
    /// The request body; empty sends none (except for `POST`/`PUT`/`PATCH`, which send a zero-length body).
    public var body: [UInt8]
    /// The whole-transfer timeout for this request; nil uses the client's `timeoutSeconds`.
    public var timeoutSeconds: Double?
    /// The HTTP version for this request; nil uses the client's `httpVersion`.
    public var httpVersion: ClientHTTPVersion?
    /// Open a new connection even when an idle one could be reused (a race's warm-ups).
    var freshConnection = false

    public init(
        method: String = "GET", url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        timeoutSeconds: Double? = nil, httpVersion: ClientHTTPVersion? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
        self.httpVersion = httpVersion
    }

    /// A `GET` of `url`.
    public static func get(_ url: String, headers: HTTPHeaders = HTTPHeaders()) -> ClientRequest {
        ClientRequest(method: "GET", url: url, headers: headers)
    }

    /// A `POST` of `body` to `url`.
    public static func post(_ url: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8]) -> ClientRequest {
        ClientRequest(method: "POST", url: url, headers: headers, body: body)
    }

    /// A `POST` of a UTF-8 string to `url`.
    public static func post(_ url: String, headers: HTTPHeaders = HTTPHeaders(), body: String) -> ClientRequest {
        ClientRequest(method: "POST", url: url, headers: headers, body: Array(body.utf8))
    }

    /// `scheme://host[:port]` of `url`, the key connections are shared by; nil when `url` has no scheme.
    var origin: String? {
        let chars = Array(url)
        guard let colon = chars.firstIndex(of: ":"), chars.count > colon + 2, chars[colon + 1] == "/",
            chars[colon + 2] == "/"
        else { return nil }
        let hostStart = colon + 3
        let end = chars[hostStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? chars.count
        return String(chars[..<end])
    }
}
