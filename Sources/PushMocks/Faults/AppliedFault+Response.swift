import HTTP

extension AppliedFault {
    /// Waits out the plan's latency, if any.
    func delay() async {
        if let ms = plan.latencyMs, ms > 0 { try? await Task.sleep(for: .milliseconds(ms)) }
    }

    /// Adds the plan's `Retry-After` and connection effect to a response the mock produced.
    /// Returns true when it set a connection directive.
    @discardableResult
    func finish(_ response: inout HTTPResponse, goawayDebug: String) -> Bool {
        if let retryAfter = plan.retryAfter { response.headers.set("retry-after", String(retryAfter)) }
        switch plan.connection {
        case .reset?, .resetAfterAccept?:
            response.directive = .resetWithoutResponse
            return true
        case .goaway?:
            response.directive = .goawayAfterResponse(errorCode: plan.goawayErrorCode ?? 0, debug: goawayDebug)
            return true
        case nil:
            return false
        }
    }
}
