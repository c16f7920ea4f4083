import JSON

extension StoreTransaction {
    // MARK: Outbox

    /// Adds a push job for `registration`, due now.
    @discardableResult
    public func enqueuePush(
        purpose: PushJob.Purpose, callId: String, registration: PushRegistration, payload: JSONValue,
        validUntilMs: Int64, nowMs: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO push_jobs (purpose, call_id, installation_id, kind, token, app_id, apns_environment, payload,
              valid_until_ms, attempts, next_attempt_at_ms, status, created_at_ms, updated_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 'pending', ?, ?)
            """,
            [
                .text(purpose.rawValue), .text(callId), .text(registration.installationId),
                .text(registration.kind.rawValue), .text(registration.token), .text(registration.appId),
                .text(registration.apnsEnvironment?.rawValue), .text(payload.serialized()), .integer(validUntilMs),
                .integer(nowMs), .integer(nowMs), .integer(nowMs),
            ])
        return db.lastInsertRowID
    }

    /// Cancels a call's invitations that have not been handed to a provider yet; when keeping
    /// retries, only those never tried.
    public func cancelPendingInvitations(callId: String, keepingRetries: Bool = false, nowMs: Int64) throws {
        try db.execute(
            """
            UPDATE push_jobs SET status = 'cancelled', updated_at_ms = ?1
            WHERE call_id = ?2 AND purpose = 'invitation' AND status = 'pending' AND (?3 = 0 OR attempts = 0)
            """, [.integer(nowMs), .text(callId), .int(keepingRetries ? 1 : 0)])
    }

    /// Cancels unsent pushes to an installation (it was rebound or unregistered), optionally of one kind.
    public func cancelPendingPushes(installationId: String, kind: PushKind? = nil, nowMs: Int64) throws {
        try db.execute(
            """
            UPDATE push_jobs SET status = 'cancelled', updated_at_ms = ?1
            WHERE installation_id = ?2 AND (?3 IS NULL OR kind = ?3) AND status = 'pending'
            """, [.integer(nowMs), .text(installationId), .text(kind?.rawValue)])
    }

    /// Cancels unsent pushes to a token the provider reported dead.
    public func cancelPendingPushes(kind: PushKind, token: String, nowMs: Int64) throws {
        try db.execute(
            "UPDATE push_jobs SET status = 'cancelled', updated_at_ms = ? WHERE kind = ? AND token = ? AND status = 'pending'",
            [.integer(nowMs), .text(kind.rawValue), .text(token)])
    }

    /// Jobs that are due (pending and past their next attempt time, or claimed by a worker whose
    /// lease ran out), oldest first.
    public func dueJobs(nowMs: Int64, limit: Int) throws -> [PushJob] {
        try db.query(
            """
            SELECT * FROM push_jobs
            WHERE (status = 'pending' AND next_attempt_at_ms <= ?1) OR (status = 'sending' AND lease_until_ms <= ?1)
            ORDER BY next_attempt_at_ms, job_id LIMIT ?2
            """, [.integer(nowMs), .int(limit)]
        ).compactMap(Self.job)
    }

    /// The earliest time something becomes due: a pending push, an expired claim, or a ringing
    /// call's deadline. Nil when nothing is scheduled.
    public func nextWakeAtMs() throws -> Int64? {
        try db.queryFirst(
            """
            SELECT min(t) AS t FROM (
              SELECT min(next_attempt_at_ms) AS t FROM push_jobs WHERE status = 'pending'
              UNION ALL SELECT min(lease_until_ms) FROM push_jobs WHERE status = 'sending'
              UNION ALL SELECT min(expires_at_ms) FROM calls WHERE state = 'ringing')
            """)?.int64("t")
    }

    /// Every job of a call (tests and diagnostics).
    public func jobs(callId: String) throws -> [PushJob] {
        try db.query("SELECT * FROM push_jobs WHERE call_id = ? ORDER BY job_id", [.text(callId)]).compactMap(Self.job)
    }

    /// Every job, oldest first (tests and diagnostics).
    public func allJobs() throws -> [PushJob] {
        try db.query("SELECT * FROM push_jobs ORDER BY job_id").compactMap(Self.job)
    }

    /// The job with this ID.
    public func job(_ jobId: Int64) throws -> PushJob? {
        try db.queryFirst("SELECT * FROM push_jobs WHERE job_id = ?", [.integer(jobId)]).flatMap(Self.job)
    }

    /// Marks a job as being sent by a worker until `leaseUntilMs`, counting the attempt.
    public func claimJob(_ jobId: Int64, leaseUntilMs: Int64, nowMs: Int64) throws {
        try db.execute(
            """
            UPDATE push_jobs SET status = 'sending', attempts = attempts + 1, lease_until_ms = ?, updated_at_ms = ?
            WHERE job_id = ?
            """, [.integer(leaseUntilMs), .integer(nowMs), .integer(jobId)])
    }

    /// Records a job's new status, next attempt time and last provider result.
    public func updateJob(
        _ jobId: Int64, status: PushJob.Status, nextAttemptAtMs: Int64? = nil, lastStatus: Int? = nil,
        lastError: String? = nil, nowMs: Int64
    ) throws {
        try db.execute(
            """
            UPDATE push_jobs SET status = ?2, next_attempt_at_ms = coalesce(?3, next_attempt_at_ms),
              last_status = coalesce(?4, last_status), last_error = coalesce(?5, last_error), lease_until_ms = NULL,
              updated_at_ms = ?6
            WHERE job_id = ?1
            """,
            [
                .integer(jobId), .text(status.rawValue), .integer(nextAttemptAtMs),
                .integer(lastStatus.map(Int64.init)),
                .text(lastError), .integer(nowMs),
            ])
    }

    private static func job(_ row: SQLiteRow) -> PushJob? {
        guard let purpose = row.string("purpose").flatMap(PushJob.Purpose.init(rawValue:)),
            let kind = row.string("kind").flatMap(PushKind.init(rawValue:)),
            let status = row.string("status").flatMap(PushJob.Status.init(rawValue:)),
            let payload = try? JSONValue.parse(row.string("payload") ?? "")
        else { return nil }
        return PushJob(
            jobId: row.int64("job_id") ?? 0, purpose: purpose, callId: row.string("call_id") ?? "",
            installationId: row.string("installation_id") ?? "", kind: kind, token: row.string("token") ?? "",
            appId: row.string("app_id") ?? "",
            apnsEnvironment: row.string("apns_environment").flatMap(APNsEnvironment.init(rawValue:)), payload: payload,
            validUntilMs: row.int64("valid_until_ms") ?? 0, attempts: Int(row.int64("attempts") ?? 0),
            nextAttemptAtMs: row.int64("next_attempt_at_ms") ?? 0, status: status,
            lastStatus: row.int64("last_status").map { Int($0) }, lastError: row.string("last_error"))
    }
}
