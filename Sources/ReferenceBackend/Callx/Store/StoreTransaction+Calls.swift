extension StoreTransaction {
    // MARK: Calls

    /// The call with this ID, ended calls included.
    public func call(_ callId: String) throws -> CallRecord? {
        try db.queryFirst("SELECT * FROM calls WHERE call_id = ?", [.text(callId)]).map(Self.callRecord)
    }

    /// Stores a new call; fails with a constraint violation if the callId was ever used.
    public func insertCall(_ call: CallRecord) throws {
        try db.execute(
            """
            INSERT INTO calls (call_id, caller_user_id, caller_display_name, caller_handle, callee_user_id, video,
              state, winning_installation_id, created_at_ms, expires_at_ms, ended_at_ms, end_reason, ended_by, revision)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, Self.callValues(call))
    }

    /// Replaces a call's row (the callId is the key).
    public func updateCall(_ call: CallRecord) throws {
        try db.execute(
            """
            UPDATE calls SET caller_user_id = ?2, caller_display_name = ?3, caller_handle = ?4, callee_user_id = ?5,
              video = ?6, state = ?7, winning_installation_id = ?8, created_at_ms = ?9, expires_at_ms = ?10,
              ended_at_ms = ?11, end_reason = ?12, ended_by = ?13, revision = ?14
            WHERE call_id = ?1
            """, Self.callValues(call))
    }

    /// IDs of ringing calls whose ring deadline is at or before `nowMs`.
    public func ringingCallsDue(nowMs: Int64, limit: Int = 500) throws -> [String] {
        try db.query(
            "SELECT call_id FROM calls WHERE state = 'ringing' AND expires_at_ms <= ? ORDER BY expires_at_ms LIMIT ?",
            [.integer(nowMs), .int(limit)]
        ).compactMap { $0.string("call_id") }
    }

    private static func callValues(_ call: CallRecord) -> [SQLiteValue] {
        [
            .text(call.callId), .text(call.callerUserId), .text(call.callerDisplayName), .text(call.callerHandle),
            .text(call.calleeUserId), .bool(call.video), .text(call.state.rawValue), .text(call.winningInstallationId),
            .integer(call.createdAtMs), .integer(call.expiresAtMs), .integer(call.endedAtMs),
            .text(call.endReason?.rawValue),
            .text(call.endedBy.map { $0 == .caller ? "caller" : "callee" }), .integer(call.revision),
        ]
    }

    private static func callRecord(_ row: SQLiteRow) -> CallRecord {
        CallRecord(
            callId: row.string("call_id") ?? "", callerUserId: row.string("caller_user_id") ?? "",
            callerDisplayName: row.string("caller_display_name") ?? "", callerHandle: row.string("caller_handle") ?? "",
            calleeUserId: row.string("callee_user_id") ?? "", video: row.int64("video") == 1,
            state: CallState(rawValue: row.string("state") ?? "") ?? .ended,
            winningInstallationId: row.string("winning_installation_id"), createdAtMs: row.int64("created_at_ms") ?? 0,
            expiresAtMs: row.int64("expires_at_ms") ?? 0, endedAtMs: row.int64("ended_at_ms"),
            endReason: row.string("end_reason").flatMap(EndReason.init(rawValue:)),
            endedBy: row.string("ended_by").map { $0 == "caller" ? .caller : .callee },
            revision: row.int64("revision") ?? 0)
    }

    // MARK: Idempotency records

    /// A stored outcome of an operation.
    public struct IdempotencyRecord: Sendable, Equatable {
        public var fingerprint: String
        public var status: Int
        public var body: [UInt8]
    }

    /// The outcome stored for (account, operationId), if any.
    public func idempotencyRecord(account: String, operationId: String) throws -> IdempotencyRecord? {
        try db.queryFirst(
            "SELECT fingerprint, status, body FROM idempotency_records WHERE account = ? AND operation_id = ?",
            [.text(account), .text(operationId)]
        ).map {
            IdempotencyRecord(
                fingerprint: $0.string("fingerprint") ?? "", status: Int($0.int64("status") ?? 0),
                body: $0["body"].bytes ?? [])
        }
    }

    /// Stores the outcome of (account, operationId); a later retry gets it back.
    public func saveIdempotencyRecord(
        account: String, operationId: String, _ record: IdempotencyRecord, nowMs: Int64
    ) throws {
        try db.execute(
            """
            INSERT OR REPLACE INTO idempotency_records (account, operation_id, fingerprint, status, body, created_at_ms)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(account), .text(operationId), .text(record.fingerprint), .int(record.status),
                .blob(record.body), .integer(nowMs),
            ])
    }
}
