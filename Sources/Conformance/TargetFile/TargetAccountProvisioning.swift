import JSON

/// `accounts:` in a target file: the accounts ringcheck creates in the backend when a run starts, one per
/// scenario user and slot, instead of a `users:` list written by hand. Each account comes from a sign-up
/// request or a command, whose JSON answer holds the account's ID and token.
///
/// ```yaml
/// accounts:
///   perUser: 12                       # accounts per user: scenarios that run at once
///   signUp: {method: POST, url: /test/accounts, body: {name: "ringcheck-{user}{slot}-{runId}"}}
///   userId: id                        # where the answer holds the new account's ID
///   token: session.token              # and its token (sent as `send` says)
/// ```
public struct TargetAccountProvisioning: Sendable, Equatable {
    /// How one account is made.
    public enum Source: Sendable, Equatable {
        /// An HTTP request; its answer (2xx, JSON) holds the account.
        case signUp(TargetSignUp)
        /// A program (run from the target file's folder) that prints the account as JSON.
        case command(BackendCommand)
    }

    public var source: Source
    /// The scenario users that get accounts (`a`, `b`, `c` unless the file names others).
    public var users: [String]
    /// Accounts per user: one slot of accounts per scenario that runs at once.
    public var perUser: Int
    /// Dotted paths of the account's ID and token in the JSON answer.
    public var userIdPath: String
    public var tokenPath: String
    public var send: TokenDelivery
    /// How long a command may run.
    public var timeoutSeconds: Double

    /// The placeholders the request's URL, headers and body and the command's arguments may hold.
    public static let placeholders = ["user", "slot", "runId", "baseURL"]
}

/// A sign-up request: `url` absolute or a path under the base URL; `{user}`, `{slot}`, `{runId}` and
/// `{baseURL}` are filled in the URL, the headers' values and the body's texts.
public struct TargetSignUp: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var body: JSONValue?
}
