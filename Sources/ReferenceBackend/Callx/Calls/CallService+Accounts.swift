import JSON
import Signing

extension CallService {
    // MARK: Sign-up

    /// `POST /v1/accounts`: creates an account and answers 201 with `{userId, displayName, handle, token}`,
    /// the token its bearer token from then on. The body names the account: `displayName` (required) and
    /// `handle` (default `callx:<userId>`); the user ID and the token are the backend's own, so no request
    /// can take over an existing user. The account is kept in the database (a restart keeps it), its token
    /// only as a SHA-256.
    public func signUp(body: JSONValue) -> APIResult {
        run { tx, now in
            let fields = RequestBody(body)
            let displayName = try fields.string("displayName")
            let userId = "usr-" + RandomIdentifier.hex(bytes: 8)
            let handle = try fields.optionalString("handle") ?? "callx:\(userId)"
            let token = RandomIdentifier.hex(bytes: 32)
            let user = BackendUser(userId: userId, displayName: displayName, handle: handle, bearerToken: token)
            try tx.insertAccount(user, tokenSHA256: Self.sha256(token), nowMs: now)
            return APIResult(
                status: 201,
                json: [
                    "userId": .string(userId), "displayName": .string(displayName), "handle": .string(handle),
                    "token": .string(token),
                ])
        }
    }

    /// The user a bearer token belongs to: one of the configured users, or an account that signed up.
    public func user(forToken token: String) -> BackendUser? {
        if let user = users.user(forToken: token) { return user }
        let hash = Self.sha256(token)
        return try? store.transaction { tx in try tx.account(tokenSHA256: hash) }
    }

    /// The user with this ID, inside a transaction: one of the configured users, or an account that signed up.
    func user(id: String, in tx: StoreTransaction) throws -> BackendUser? {
        try users.user(id: id) ?? tx.account(userId: id)
    }

    static func sha256(_ text: String) -> String { RandomIdentifier.hexString(Digest.sha256(Array(text.utf8))) }
}
