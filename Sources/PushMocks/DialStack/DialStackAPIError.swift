import HTTP
import JSON

/// An error answer of the mock DialStack API: a status and `{"error": {"type": …, "message": …}}` (the
/// Stripe-style shape DialStack's `dialstackAccount` option suggests; the seed shows none).
public struct DialStackAPIError: Error, Sendable, Equatable {
    public var status: Int
    public var type: String
    public var message: String

    /// Creates a value from its parts.
    public init(_ status: Int, _ type: String, _ message: String) {
        self.status = status
        self.type = type
        self.message = message
    }

    /// The answer's body and headers.
    public var response: HTTPResponse {
        let body: JSONValue = ["error": ["type": .string(type), "message": .string(message)]]
        return HTTPResponse.json(status, body.bytes(), headers: ["content-type": "application/json"])
    }
}
