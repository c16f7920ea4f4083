import CCurl
import Foundation

/// Why `HTTPClient` could not complete a request: what kind of failure, libcurl's code and words for
/// it, and which request it was.
public struct ClientError: Error, Sendable, CustomStringConvertible {
    /// The failures a caller may want to tell apart.
    public enum Kind: String, Sendable {
        /// The host name did not resolve.
        case dns
        /// The TCP connection could not be made (refused, unreachable).
        case connect
        /// The transfer or the connection attempt ran out of time.
        case timeout
        /// The TLS handshake failed or the server's certificate was not trusted.
        case tls
        /// The peer reset or closed the connection or the HTTP/2 stream before a full response.
        case reset
        /// The server answered with something that is not HTTP.
        case protocolError
        /// The request itself could not be sent as given (bad URL, unsupported scheme or option).
        case invalidRequest
        /// The Swift task was cancelled and the transfer aborted.
        case cancelled
        /// The client was shut down before the transfer finished.
        case shutdown
        /// Anything else libcurl reported.
        case other
    }

    public var kind: Kind
    /// libcurl's `CURLcode` (or `CURLMcode` for multi-handle operations); 0 when the error did not come from libcurl.
    public var curlCode: Int
    /// `curl_easy_strerror` text for `curlCode`, or what went wrong when libcurl was not involved.
    public var message: String
    /// libcurl's detailed message for this transfer (`CURLOPT_ERRORBUFFER`), often naming host and port; may be empty.
    public var detail: String
    /// The request's URL.
    public var url: String
    /// What was being done: `POST request`, `curl_easy_setopt(10002)`, `curl_multi_add_handle`.
    public var operation: String

    public init(
        kind: Kind, curlCode: Int = 0, message: String, detail: String = "", url: String, operation: String
    ) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
        self.detail = detail
        self.url = url
        self.operation = operation
    }

    public var description: String { describe(url) }

    /// The description with the URL cut to its scheme, host and port: for logs, where the path may
    /// carry a secret (an APNs request's path holds the device token).
    public var descriptionWithoutPath: String { describe(Self.origin(of: url)) }

    private func describe(_ shownURL: String) -> String {
        var s = "\(operation) \(shownURL) failed (\(kind.rawValue)): \(message)"
        if curlCode != 0 { s += " [curl \(curlCode)]" }
        if !detail.isEmpty && detail != message { s += ": \(detail.replacingOccurrences(of: url, with: shownURL))" }
        return s
    }

    /// `scheme://host:port` of `url` (all of it when it has no path).
    static func origin(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return url }
        return String(url[..<slash])
    }

    /// An error for an easy-handle result code.
    init(code: CURLcode, detail: String = "", url: String, operation: String) {
        self.init(
            kind: Self.kind(of: code), curlCode: Int(code.rawValue), message: String(cString: curl_easy_strerror(code)),
            detail: detail, url: url, operation: operation)
    }

    /// An error for a multi-handle result code.
    init(multiCode: CURLMcode, url: String, operation: String) {
        self.init(
            kind: .other, curlCode: Int(multiCode.rawValue), message: String(cString: curl_multi_strerror(multiCode)),
            url: url, operation: operation)
    }

    /// Sorts libcurl's codes into the kinds callers branch on.
    static func kind(of code: CURLcode) -> Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dns
        case CURLE_COULDNT_CONNECT:
            return .connect
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .tls
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2_STREAM,
            CURLE_HTTP2:
            return .reset
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING:
            return .protocolError
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_BAD_FUNCTION_ARGUMENT, CURLE_UNKNOWN_OPTION,
            CURLE_NOT_BUILT_IN:
            return .invalidRequest
        default:
            return .other
        }
    }
}
