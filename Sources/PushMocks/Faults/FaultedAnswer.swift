import HTTP

/// A refusal as a mock's capture records it: the response sent, the reason and a detail.
struct MockRefusal {
    var response: HTTPResponse
    var reason: String
    var detail: String?
}

/// The answer every JSON mock (FCM, OAuth, OneSignal) gives one request under the fault plans:
/// a reset, the plan's injected error, or the mock's own judgement; then the plan's connection
/// effect, and the capture recorded with its outcome.
///
/// ```swift
/// return await FaultedAnswer.answer(
///     capture, fault: faults?.next(mock: .oauth, deviceToken: nil), log: log,
///     injected: { respond, planID in MockRefusal(response: …, reason: "invalid_grant", detail: nil) },
///     judge: { capture throws(OAuthError) in try grant(request, &capture) },
///     refused: { error in MockRefusal(response: error.response, reason: error.error, detail: error.description) })
/// ```
enum FaultedAnswer {
    static func answer<Failure: Error>(
        _ capture: Capture, fault: AppliedFault?, log: CaptureLog,
        injected: (FaultResponse, _ planID: String) -> MockRefusal,
        judge: (inout Capture) throws(Failure) -> HTTPResponse,
        refused: (Failure) -> MockRefusal
    ) async -> HTTPResponse {
        var capture = capture
        capture.fault = fault
        await fault?.delay()

        var response: HTTPResponse
        if fault?.plan.connection == .reset {
            response = HTTPResponse(status: 0, directive: .resetWithoutResponse)
            capture.outcome = .rejected(reason: "ConnectionReset")
            capture.detail = "fault \(fault?.planID ?? ""): connection reset without a response"
        } else if let respond = fault?.plan.respond {
            let refusal = injected(respond, fault?.planID ?? "")
            response = refusal.response
            capture.outcome = .rejected(reason: refusal.reason)
            capture.detail = refusal.detail ?? "fault \(fault?.planID ?? "")"
        } else {
            do throws(Failure) {
                response = try judge(&capture)
                capture.outcome = .accepted
            } catch {
                let refusal = refused(error)
                response = refusal.response
                capture.outcome = .rejected(reason: refusal.reason)
                capture.detail = refusal.detail
            }
        }
        fault?.finish(&response, goawayDebug: "")
        // Answered off the event loop: the connection marks when the answer actually left (and, for a refusal,
        // when its HTTP/2 client had read it).
        response.sentStamp = AnswerStamp(awaitingRead: !capture.outcome.isAccepted)
        capture.response = response
        log.record(capture)
        return response
    }
}
