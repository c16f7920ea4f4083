/// The `errorCode` values of FCM HTTP v1 errors, with the HTTP status and Google status of each.
public enum FCMErrorCode: String, Sendable, Codable, CaseIterable {
    case unspecifiedError = "UNSPECIFIED_ERROR"
    case invalidArgument = "INVALID_ARGUMENT"
    case unregistered = "UNREGISTERED"
    case senderIDMismatch = "SENDER_ID_MISMATCH"
    case quotaExceeded = "QUOTA_EXCEEDED"
    case unavailable = "UNAVAILABLE"
    case `internal` = "INTERNAL"
    case thirdPartyAuthError = "THIRD_PARTY_AUTH_ERROR"

    /// The HTTP status FCM answers with.
    public var httpStatus: Int {
        switch self {
        case .unspecifiedError, .internal: return 500
        case .invalidArgument: return 400
        case .unregistered: return 404
        case .senderIDMismatch: return 403
        case .quotaExceeded: return 429
        case .unavailable: return 503
        case .thirdPartyAuthError: return 401
        }
    }

    /// The `google.rpc.Code` name in `error.status`.
    public var googleStatus: String {
        switch self {
        case .unspecifiedError: return "UNKNOWN"
        case .invalidArgument: return "INVALID_ARGUMENT"
        case .unregistered: return "NOT_FOUND"
        case .senderIDMismatch: return "PERMISSION_DENIED"
        case .quotaExceeded: return "RESOURCE_EXHAUSTED"
        case .unavailable: return "UNAVAILABLE"
        case .internal: return "INTERNAL"
        case .thirdPartyAuthError: return "UNAUTHENTICATED"
        }
    }

    /// The message FCM writes for it.
    public var defaultMessage: String {
        switch self {
        case .unspecifiedError: return "Unknown error."
        case .invalidArgument: return "Request contains an invalid argument."
        case .unregistered: return "Requested entity was not found."
        case .senderIDMismatch: return "SenderId mismatch"
        case .quotaExceeded:
            return "Quota exceeded for quota metric 'Send requests' and limit 'Send requests per minute'."
        case .unavailable: return "The service is currently unavailable."
        case .internal: return "Internal error encountered."
        case .thirdPartyAuthError: return "Auth error from APNS or Web Push Service"
        }
    }

    /// The error code FCM uses for an HTTP status (for faults that give only a status).
    public static func forStatus(_ status: Int) -> FCMErrorCode {
        switch status {
        case 400: return .invalidArgument
        case 401: return .thirdPartyAuthError
        case 403: return .senderIDMismatch
        case 404: return .unregistered
        case 429: return .quotaExceeded
        case 503: return .unavailable
        case 500: return .internal
        default: return status >= 500 ? .internal : .invalidArgument
        }
    }
}
