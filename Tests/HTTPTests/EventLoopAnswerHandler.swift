import HTTP

/// Answers every request on the server's event loop with what `answer` makes of it (and the same
/// through `handle`), so a test sees what the server handed its handler.
struct EventLoopAnswerHandler: HTTPImmediateHandler {
    let answer: @Sendable (HTTPRequest) -> HTTPResponse

    func respondImmediately(to request: HTTPRequest) -> HTTPResponse? { answer(request) }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { answer(request) }
}
