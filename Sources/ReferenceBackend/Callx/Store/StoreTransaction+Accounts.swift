extension StoreTransaction {
    // MARK: Accounts that signed up

    /// Saves a new account; its token is kept only as the SHA-256 (hex) of it.
    public func insertAccount(_ user: BackendUser, tokenSHA256: String, nowMs: Int64) throws {
        try db.execute(
            "INSERT INTO accounts (user_id, display_name, handle, token_sha256, created_at_ms) VALUES (?, ?, ?, ?, ?)",
            [.text(user.userId), .text(user.displayName), .text(user.handle), .text(tokenSHA256), .integer(nowMs)])
    }

    /// The account whose token has this SHA-256 (hex).
    public func account(tokenSHA256: String) throws -> BackendUser? {
        try db.queryFirst("SELECT * FROM accounts WHERE token_sha256 = ?", [.text(tokenSHA256)]).flatMap(Self.account)
    }

    /// The account with this user ID.
    public func account(userId: String) throws -> BackendUser? {
        try db.queryFirst("SELECT * FROM accounts WHERE user_id = ?", [.text(userId)]).flatMap(Self.account)
    }

    /// An account as a user; its token is not kept, so `bearerToken` is empty.
    private static func account(_ row: SQLiteRow) -> BackendUser? {
        guard let id = row.string("user_id"), let name = row.string("display_name"), let handle = row.string("handle")
        else { return nil }
        return BackendUser(userId: id, displayName: name, handle: handle, bearerToken: "")
    }
}
