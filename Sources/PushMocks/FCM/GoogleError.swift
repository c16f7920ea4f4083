import HTTP
import JSON

/// An error answer in Google's API shape:
/// `{"error": {"code", "message", "status", "details": [...]}}`, with an `FcmError` detail carrying
/// `errorCode` for FCM errors and a `BadRequest` detail for field problems.
struct GoogleError: Error {
    var httpStatus: Int
    /// The `google.rpc.Code` name.
    var status: String
    var message: String
    var errorCode: FCMErrorCode?
    /// `(field, description)` pairs for a `google.rpc.BadRequest` detail.
    var fieldViolations: [(String, String)] = []
    /// A `google.rpc.ErrorInfo` reason (authentication errors).
    var errorInfoReason: String?

    init(_ code: FCMErrorCode, _ message: String? = nil, field: String? = nil) {
        httpStatus = code.httpStatus
        status = code.googleStatus
        self.message = message ?? code.defaultMessage
        errorCode = code
        if let field { fieldViolations = [(field, self.message)] }
    }

    init(httpStatus: Int, status: String, message: String, errorInfoReason: String? = nil) {
        self.httpStatus = httpStatus
        self.status = status
        self.message = message
        self.errorInfoReason = errorInfoReason
    }

    /// What a capture records as the reason: the FCM error code, else the Google status.
    var reason: String { errorCode?.rawValue ?? status }

    static func invalidArgument(_ message: String, field: String? = nil) -> GoogleError {
        GoogleError(.invalidArgument, message, field: field)
    }

    static let credentialHelp =
        "Expected OAuth 2 access token, login cookie or other valid authentication credential. "
        + "See https://developers.google.com/identity/sign-in/web/devconsole-project."

    var json: JSONValue {
        var details: [JSONValue] = []
        if let errorCode {
            details.append([
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": .string(errorCode.rawValue),
            ])
        }
        if !fieldViolations.isEmpty {
            details.append([
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": .array(
                    fieldViolations.map { ["field": .string($0.0), "description": .string($0.1)] }),
            ])
        }
        if let errorInfoReason {
            details.append([
                "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": .string(errorInfoReason),
                "domain": "googleapis.com",
                "metadata": [
                    "service": "fcm.googleapis.com", "method": "google.firebase.fcm.v1.FcmService.SendMessage",
                ],
            ])
        }
        var error: [(key: String, value: JSONValue)] = [
            ("code", .int(httpStatus)), ("message", .string(message)), ("status", .string(status)),
        ]
        if !details.isEmpty { error.append(("details", .array(details))) }
        return .object([("error", .object(error))])
    }

    var response: HTTPResponse {
        HTTPResponse.json(httpStatus, json.bytes(), headers: ["content-type": "application/json; charset=UTF-8"])
    }
}
