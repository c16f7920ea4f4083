import HTTP
import JSON

/// A finished API outcome: status and exact body bytes (what an idempotent retry gets back).
public struct APIResult: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    init(status: Int, json: JSONValue) { self.init(status: status, body: json.bytes()) }

    /// A conflict that also shows the call as it now is: the snapshot's members plus `error`.
    static func conflict(_ code: String, _ message: String, snapshot: JSONValue) -> APIResult {
        APIResult(status: 409, json: snapshot.setting("error", to: APIError.errorObject(code, message)))
    }

    var response: HTTPResponse {
        if body.isEmpty { return HTTPResponse(status: status) }
        return .json(status, body)
    }
}

/// A refused request: the HTTP status and the one error shape, `{"error": {"code", "message"}}`.
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    /// Machine-readable, e.g. `unauthenticated`, `not_a_participant`, `idempotency_conflict`.
    public var code: String
    public var message: String

    public init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func errorObject(_ code: String, _ message: String) -> JSONValue {
        ["code": .string(code), "message": .string(message)]
    }

    var result: APIResult { APIResult(status: status, json: ["error": Self.errorObject(code, message)]) }

    static func badRequest(_ message: String) -> APIError { APIError(400, "invalid_request", message) }
    static let unauthenticated = APIError(401, "unauthenticated", "send Authorization: Bearer <token> of a known user")
    static let notParticipant = APIError(403, "not_a_participant", "you are not a participant of this call")
    static let callNotFound = APIError(404, "call_not_found", "no call with this callId")
}
