import HTTP
import InputLimits
import JSON

/// What a provider's answer means for the job that was sent.
public enum PushOutcome: Sendable, Equatable {
    /// Accepted for delivery (not delivered, not rung).
    case accepted
    /// A temporary failure (429, 5xx, no response): try again, not before `retryAfterMs` if given.
    case retry(retryAfterMs: Int64?, reason: String)
    /// The token is dead (APNs 410 / BadDeviceToken, FCM UNREGISTERED): remove the registration.
    case deadToken(reason: String)
    /// A permanent failure for this message: give up.
    case failed(reason: String)

    /// Classifies a provider response for a push of `kind`.
    public static func classify(_ response: HTTPResponse, kind: PushKind) -> PushOutcome {
        let status = response.status
        if (200..<300).contains(status) { return .accepted }
        let json = try? JSONValue.parse(response.body)
        switch kind {
        case .apnsVoip:
            let reason = json?["reason"]?.stringValue ?? "HTTP \(status)"
            if status == 410 || (status == 400 && reason == "BadDeviceToken") { return .deadToken(reason: reason) }
            if status == 429 || status >= 500 || reason == "ExpiredProviderToken" {
                return .retry(retryAfterMs: retryAfterMs(response), reason: reason)
            }
            return .failed(reason: reason)
        case .fcm:
            let error = json?["error"]
            let codes = (error?["details"]?.arrayValue ?? []).compactMap { $0["errorCode"]?.stringValue }
            let reason = codes.first ?? error?["status"]?.stringValue ?? "HTTP \(status)"
            if codes.contains("UNREGISTERED") || error?["status"]?.stringValue == "UNREGISTERED" {
                return .deadToken(reason: "UNREGISTERED")
            }
            if status == 429 || status >= 500 { return .retry(retryAfterMs: retryAfterMs(response), reason: reason) }
            return .failed(reason: reason)
        }
    }

    /// `Retry-After` in delay-seconds form, as milliseconds.
    static func retryAfterMs(_ response: HTTPResponse) -> Int64? {
        // A delay beyond a day is not one the outbox waits (and 1e30 s would overflow in milliseconds).
        guard let text = response.headers["retry-after"],
            let seconds = try? CheckedNumber.int64(text.filter { $0 != " " }, in: 0...86_400)
        else { return nil }
        return seconds * 1000
    }
}

extension PushOutcome {
    /// How the backend log names the outcome: `accepted`, `retry (ServiceUnavailable)`, …
    /// No response came (reset, timeout, refused): a temporary failure. The reason names the provider's
    /// host but not the URL's path, which holds an APNs device token, since the reason reaches the log.
    static func noResponse(_ error: any Error) -> PushOutcome {
        .retry(
            retryAfterMs: nil, reason: "no response: " + ((error as? ClientError)?.descriptionWithoutPath ?? "\(error)")
        )
    }

    var logName: String {
        switch self {
        case .accepted: return "delivered"
        case .retry(let after, let reason):
            return "retry" + (after.map { " after \($0) ms" } ?? "") + " (\(reason))"
        case .deadToken(let reason): return "dead token (\(reason))"
        case .failed(let reason): return "failed (\(reason))"
        }
    }
}
