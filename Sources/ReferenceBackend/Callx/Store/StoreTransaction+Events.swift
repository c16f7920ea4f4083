import JSON

/// One stored event, with its position in the feed.
public struct StoredEvent: Sendable, Equatable {
    public var seq: Int64
    public var eventId: String
    public var callId: String
    public var body: JSONValue
}

extension StoreTransaction {
    // MARK: Events

    /// Appends an event to `audience.userId`'s feed and trims that feed to its newest `retention`
    /// events. Returns the event's position.
    @discardableResult
    public func appendEvent(
        eventId: String, callId: String, audience: EventAudience, body: JSONValue, retention: Int, nowMs: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO events (event_id, user_id, only_installation_id, except_installation_id, call_id, body,
              created_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(eventId), .text(audience.userId), .text(audience.onlyInstallationId),
                .text(audience.exceptInstallationId), .text(callId), .text(body.serialized()), .integer(nowMs),
            ])
        let seq = db.lastInsertRowID
        try prune(userId: audience.userId, retention: retention)
        return seq
    }

    /// Drops all but the newest `retention` events of a user's feed, remembering how far it pruned.
    private func prune(userId: String, retention: Int) throws {
        guard
            let cutoff = try db.queryFirst(
                "SELECT seq FROM events WHERE user_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
                [.text(userId), .int(max(retention, 0))])?.int64("seq")
        else { return }
        try db.execute("DELETE FROM events WHERE user_id = ? AND seq <= ?", [.text(userId), .integer(cutoff)])
        try db.execute(
            """
            INSERT INTO event_feeds (user_id, pruned_through_seq) VALUES (?, ?)
            ON CONFLICT (user_id) DO UPDATE SET pruned_through_seq = max(pruned_through_seq, excluded.pruned_through_seq)
            """, [.text(userId), .integer(cutoff)])
    }

    /// The newest position pruned from a user's feed (0 if none).
    public func prunedThrough(userId: String) throws -> Int64 {
        try db.queryFirst("SELECT pruned_through_seq FROM event_feeds WHERE user_id = ?", [.text(userId)])?
            .int64("pruned_through_seq") ?? 0
    }

    /// The newest position ever given to any event (0 if none).
    public func latestEventSeq() throws -> Int64 {
        try db.queryFirst("SELECT seq FROM sqlite_sequence WHERE name = 'events'")?.int64("seq") ?? 0
    }

    /// Events after `afterSeq` that installation `installationId` of `userId` should hear, oldest first.
    public func events(
        userId: String, installationId: String, afterSeq: Int64, limit: Int
    ) throws -> [StoredEvent] {
        try db.query(
            """
            SELECT seq, event_id, call_id, body FROM events
            WHERE user_id = ?1 AND seq > ?2
              AND (only_installation_id IS NULL OR only_installation_id = ?3)
              AND (except_installation_id IS NULL OR except_installation_id != ?3)
            ORDER BY seq LIMIT ?4
            """, [.text(userId), .integer(afterSeq), .text(installationId), .int(limit)]
        ).map { row in
            StoredEvent(
                seq: row.int64("seq") ?? 0, eventId: row.string("event_id") ?? "", callId: row.string("call_id") ?? "",
                body: (try? JSONValue.parse(row.string("body") ?? "null")) ?? .null)
        }
    }
}
