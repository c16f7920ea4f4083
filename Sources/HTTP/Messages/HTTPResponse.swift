/// What the server does to the connection after (or instead of) answering a request.
///
/// Mocks use these to act like a real provider under fault: reset the TCP connection,
/// announce shutdown with GOAWAY, or change how many streams a client may open.
public enum ConnectionDirective: Sendable, Equatable {
    /// Answer normally.
    case none
    /// Send no response; abort the TCP connection with a reset (SO_LINGER 0).
    case resetWithoutResponse
    /// Send the response, then abort the connection with a reset.
    case resetAfterResponse
    /// Send the response, then HTTP/2 GOAWAY with this error code and debug text, and close once
    /// in-flight streams finish. On HTTP/1.1: answer with `connection: close` and close.
    case goawayAfterResponse(errorCode: UInt32, debug: String)
    /// Send the response, then HTTP/2 SETTINGS with this SETTINGS_MAX_CONCURRENT_STREAMS.
    case setMaxConcurrentStreams(UInt32)
}

/// A complete response to one request.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    public var directive: ConnectionDirective
    /// Marked by the connection once this answer has been written out (`AnswerStamp`); nil: not tracked.
    public var sentStamp: AnswerStamp?

    public init(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], directive: ConnectionDirective = .none
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.directive = directive
    }

    /// A JSON response from already-encoded bytes.
    public static func json(_ status: Int, _ body: [UInt8], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var h = headers
        if h["content-type"] == nil { h.add("content-type", "application/json") }
        return HTTPResponse(status: status, headers: h, body: body)
    }

    /// A JSON response from a UTF-8 string.
    public static func json(_ status: Int, _ body: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        json(status, Array(body.utf8), headers: headers)
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["content-type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }

    /// What stands in for the answer to a request nobody waits for (`HTTPRequest.isAbandoned`), so its
    /// connection can move on; an HTTP/1.1 client that half-closed and still reads sees it.
    public static let abandoned = HTTPResponse.text(503, "the client went away before the request was handled\n")
}

/// Answers requests. Called on the cooperative pool, never on the event-loop thread.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) async -> HTTPResponse
}

/// A handler that can often answer at once, without suspending: the server asks it on the event-loop
/// thread first, sparing the request the trip to the cooperative pool and back.
///
/// `respondImmediately` must not block or wait (it holds up every connection of the loop); it returns
/// nil to have the request go to `handle` on the pool as usual.
public protocol HTTPImmediateHandler: HTTPHandler {
    func respondImmediately(to request: HTTPRequest) -> HTTPResponse?

    /// A change to the connection to make as soon as `request` arrives, for a request that
    /// `respondImmediately` left to `handle` (whose answer may come much later): only
    /// `.setMaxConcurrentStreams` is applied this way. Called on the event-loop thread, so it must not
    /// block; nil (the default) changes nothing.
    func directiveOnArrival(of request: HTTPRequest) -> ConnectionDirective?

    /// HTTP/2 connection `connectionID` refused `count` streams (RST_STREAM REFUSED_STREAM: the client opened
    /// more than the SETTINGS_MAX_CONCURRENT_STREAMS sent to it). The refused requests' headers are never
    /// read, so no request is handed on for them. Called on the event-loop thread, so it must not block;
    /// the default does nothing.
    func streamsRefused(_ count: Int, connectionID: UInt64)
}

extension HTTPImmediateHandler {
    public func directiveOnArrival(of request: HTTPRequest) -> ConnectionDirective? { nil }
    public func streamsRefused(_ count: Int, connectionID: UInt64) {}
}

/// An `HTTPHandler` made from a closure.
public struct ClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse
    public init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }
    public func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }
}
