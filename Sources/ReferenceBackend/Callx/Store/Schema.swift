/// The reference backend's tables. Versioned with `PRAGMA user_version`.
enum Schema {
    static let version: Int64 = 3

    static let statements = """
        CREATE TABLE IF NOT EXISTS installations (
            installation_id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL,
            bound_at_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS installations_by_user ON installations(user_id);

        CREATE TABLE IF NOT EXISTS push_registrations (
            installation_id TEXT NOT NULL REFERENCES installations(installation_id),
            kind TEXT NOT NULL CHECK (kind IN ('apnsVoip', 'fcm')),
            token TEXT NOT NULL,
            app_id TEXT NOT NULL,
            apns_environment TEXT CHECK (apns_environment IN ('sandbox', 'production')),
            user_id TEXT NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (installation_id, kind)
        );
        CREATE INDEX IF NOT EXISTS push_registrations_by_user ON push_registrations(user_id);
        CREATE INDEX IF NOT EXISTS push_registrations_by_token ON push_registrations(kind, token);

        CREATE TABLE IF NOT EXISTS calls (
            call_id TEXT PRIMARY KEY,
            caller_user_id TEXT NOT NULL,
            caller_display_name TEXT NOT NULL,
            caller_handle TEXT NOT NULL,
            callee_user_id TEXT NOT NULL,
            video INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL CHECK (state IN ('ringing', 'accepted', 'ended')),
            winning_installation_id TEXT,
            created_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            ended_at_ms INTEGER,
            end_reason TEXT,
            ended_by TEXT,
            revision INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS calls_ringing_by_expiry ON calls(state, expires_at_ms);

        CREATE TABLE IF NOT EXISTS idempotency_records (
            account TEXT NOT NULL,
            operation_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            status INTEGER NOT NULL,
            body BLOB NOT NULL,
            created_at_ms INTEGER NOT NULL,
            PRIMARY KEY (account, operation_id)
        );

        CREATE TABLE IF NOT EXISTS events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            event_id TEXT NOT NULL UNIQUE,
            user_id TEXT NOT NULL,
            only_installation_id TEXT,
            except_installation_id TEXT,
            call_id TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS events_by_user ON events(user_id, seq);

        CREATE TABLE IF NOT EXISTS event_feeds (
            user_id TEXT PRIMARY KEY,
            pruned_through_seq INTEGER NOT NULL
        );

        CREATE TABLE IF NOT EXISTS push_jobs (
            job_id INTEGER PRIMARY KEY AUTOINCREMENT,
            purpose TEXT NOT NULL CHECK (purpose IN ('invitation', 'stopSignal')),
            call_id TEXT NOT NULL,
            installation_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            token TEXT NOT NULL,
            app_id TEXT NOT NULL,
            apns_environment TEXT,
            payload TEXT NOT NULL,
            valid_until_ms INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at_ms INTEGER NOT NULL,
            lease_until_ms INTEGER,
            status TEXT NOT NULL,
            last_status INTEGER,
            last_error TEXT,
            created_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS push_jobs_due ON push_jobs(status, next_attempt_at_ms);
        CREATE INDEX IF NOT EXISTS push_jobs_by_call ON push_jobs(call_id);
        CREATE TABLE IF NOT EXISTS accounts (
            user_id TEXT PRIMARY KEY,
            display_name TEXT NOT NULL,
            handle TEXT NOT NULL,
            token_sha256 TEXT NOT NULL UNIQUE,
            created_at_ms INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS provider_tokens (
            key_id TEXT PRIMARY KEY,
            token TEXT NOT NULL,
            issued_at_ms INTEGER NOT NULL
        );
        """

    /// Creates the tables if missing and records the schema version.
    static func migrate(_ db: SQLiteConnection) throws {
        let current = try db.queryFirst("PRAGMA user_version")?[0].int64 ?? 0
        guard current < version else { return }
        try db.executeScript(statements)
        try db.executeScript("PRAGMA user_version = \(version)")
    }
}
