import Conformance
import JSON

/// One of a profile's own operations as a target file maps it (`profileOperations.<name>`): the request ringcheck
/// sends to make the backend act, and where its answer says what happened.
public struct ProfileOperationMapping: Sendable, Equatable {
    public var method: String
    /// Under the base URL; `{name}` placeholders are filled by the profile (the onesignal profile's `{userId}`),
    /// percent-encoded.
    public var path: String
    /// The request body with `{name}` placeholders; nil sends the profile's own body.
    public var body: JSONValue?
    /// Dotted path of the answer's boolean delivered flag.
    public var delivered: String
    /// How the request authenticates (`auth:` on the operation or for all of them); nil sends no credentials.
    public var auth: TargetAuth?

    public init(
        path: String, method: String = "POST", body: JSONValue? = nil, delivered: String = "delivered",
        auth: TargetAuth? = nil
    ) {
        self.method = method
        self.path = path
        self.body = body
        self.delivered = delivered
        self.auth = auth
    }
}
