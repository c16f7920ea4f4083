extension StoreTransaction {
    // MARK: Installations

    /// The user an installation is bound to, if it is known.
    public func installationOwner(_ installationId: String) throws -> String? {
        try db.queryFirst("SELECT user_id FROM installations WHERE installation_id = ?", [.text(installationId)])?
            .string("user_id")
    }

    /// Binds an installation to a user (creating it, or moving it from another user).
    public func bindInstallation(_ installationId: String, to userId: String, nowMs: Int64) throws {
        try db.execute(
            """
            INSERT INTO installations (installation_id, user_id, bound_at_ms) VALUES (?, ?, ?)
            ON CONFLICT (installation_id) DO UPDATE SET user_id = excluded.user_id, bound_at_ms = excluded.bound_at_ms
            """, [.text(installationId), .text(userId), .integer(nowMs)])
    }

    // MARK: Push registrations

    /// Saves (or replaces) the registration of one installation and kind.
    public func saveRegistration(_ registration: PushRegistration) throws {
        try db.execute(
            """
            INSERT OR REPLACE INTO push_registrations
              (installation_id, kind, token, app_id, apns_environment, user_id, updated_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(registration.installationId), .text(registration.kind.rawValue), .text(registration.token),
                .text(registration.appId), .text(registration.apnsEnvironment?.rawValue), .text(registration.userId),
                .integer(registration.updatedAtMs),
            ])
    }

    /// The registration of one installation and kind.
    public func registration(installationId: String, kind: PushKind) throws -> PushRegistration? {
        try db.queryFirst(
            "SELECT * FROM push_registrations WHERE installation_id = ? AND kind = ?",
            [.text(installationId), .text(kind.rawValue)]
        ).flatMap(Self.registration)
    }

    /// Every registration that rings `userId`.
    public func registrations(ofUser userId: String) throws -> [PushRegistration] {
        try db.query(
            "SELECT * FROM push_registrations WHERE user_id = ? ORDER BY installation_id, kind", [.text(userId)]
        ).compactMap(Self.registration)
    }

    /// Every registration of one installation.
    public func registrations(ofInstallation installationId: String) throws -> [PushRegistration] {
        try db.query(
            "SELECT * FROM push_registrations WHERE installation_id = ? ORDER BY kind", [.text(installationId)]
        ).compactMap(Self.registration)
    }

    /// Other installations' registrations of the same token (a token names one device's app).
    public func registrations(kind: PushKind, token: String) throws -> [PushRegistration] {
        try db.query(
            "SELECT * FROM push_registrations WHERE kind = ? AND token = ?", [.text(kind.rawValue), .text(token)]
        ).compactMap(Self.registration)
    }

    /// Deletes one installation's registration of a kind; if `token` is given, only while it still has that token.
    @discardableResult
    public func deleteRegistration(installationId: String, kind: PushKind, token: String? = nil) throws -> Bool {
        if let token {
            return try db.execute(
                "DELETE FROM push_registrations WHERE installation_id = ? AND kind = ? AND token = ?",
                [.text(installationId), .text(kind.rawValue), .text(token)]) > 0
        }
        return try db.execute(
            "DELETE FROM push_registrations WHERE installation_id = ? AND kind = ?",
            [.text(installationId), .text(kind.rawValue)]) > 0
    }

    private static func registration(_ row: SQLiteRow) -> PushRegistration? {
        guard let kind = row.string("kind").flatMap(PushKind.init(rawValue:)) else { return nil }
        return PushRegistration(
            installationId: row.string("installation_id") ?? "", kind: kind, token: row.string("token") ?? "",
            appId: row.string("app_id") ?? "",
            apnsEnvironment: row.string("apns_environment").flatMap(APNsEnvironment.init(rawValue:)),
            userId: row.string("user_id") ?? "", updatedAtMs: row.int64("updated_at_ms") ?? 0)
    }
}
