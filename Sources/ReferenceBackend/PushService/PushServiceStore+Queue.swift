import HTTP

extension PushServiceStore {
    // MARK: Notifications

    /// Queues a notification with its deliveries in one transaction.
    func queue(
        notificationId: String, appId: String, callId: String?, callAction: String?, request: [UInt8],
        deliveries: [PlannedDelivery], nowMs: Int64
    ) throws {
        try database.transaction { db in
            let pending = deliveries.contains { $0.request != nil }
            try db.execute(
                """
                INSERT INTO ps_notifications (notification_id, app_id, call_id, call_action, request, queued_at_ms,
                    completed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(notificationId), .text(appId), .text(callId), .text(callAction), .blob(request),
                    .integer(nowMs), pending ? .null : .integer(nowMs),
                ])
            for delivery in deliveries {
                let r = delivery.request
                try db.execute(
                    """
                    INSERT INTO ps_deliveries (notification_id, device_id, channel, destination, path, headers, body,
                        state, reason, due_at_ms, give_up_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(notificationId), .text(delivery.deviceId), .text(delivery.channel.rawValue),
                        .text(r?.destination.stored ?? "none"), .text(r?.path ?? ""),
                        .text(r?.headers.storedJSON ?? "[]"),
                        .blob(r?.body ?? []), .text(r == nil ? delivery.settledState.rawValue : "pending"),
                        .text(delivery.reason), .integer(nowMs), .integer(delivery.giveUpAtMs),
                    ])
            }
        }
    }

    /// A notification's stored request, times and counts; nil when the app has none with this ID.
    func notification(appId: String, id: String) throws -> (
        request: [UInt8], queuedAtMs: Int64, completedAtMs: Int64?, counts: DeliveryCounts
    )? {
        try database.withConnection { db in
            guard
                let row = try db.queryFirst(
                    "SELECT * FROM ps_notifications WHERE app_id = ? AND notification_id = ?",
                    [.text(appId), .text(id)])
            else { return nil }
            var counts = DeliveryCounts()
            for r in try db.query(
                "SELECT state, COUNT(*) AS n FROM ps_deliveries WHERE notification_id = ? GROUP BY state", [.text(id)])
            {
                let n = Int(r.int64("n") ?? 0)
                switch r.string("state") {
                case "successful": counts.successful = n
                case "failed": counts.failed = n
                case "errored": counts.errored = n
                default: counts.remaining += n
                }
            }
            return (
                row["request"].bytes ?? [], row.int64("queued_at_ms") ?? 0, row.int64("completed_at_ms"), counts
            )
        }
    }

    // MARK: The queue

    /// What one claim took from the queue: the deliveries to send, and the incoming-call pushes it
    /// dropped because their call had stopped ringing (settled `failed`, never sent).
    struct Claim: Sendable {
        /// An incoming-call push the claim settled `failed` because its call had stopped ringing.
        struct Dropped: Sendable, Equatable {
            var notificationId: String
            var deviceId: String
            var channel: String
        }

        var due: [ServiceDelivery] = []
        var dropped: [Dropped] = []
    }

    /// Why the claim drops an incoming-call push whose ring has ended.
    static let ringEndedReason =
        "the call's timeout passed before it was sent: a late call push rings a call that is gone"

    /// Claims up to `limit` pending deliveries due at `nowMs`: each is held for `leaseMs` (a worker
    /// that dies mid-send loses it after that) and its attempt counted. An incoming-call push whose
    /// ring has ended (`give_up_at_ms`, the request's `timeout`) is settled `failed` instead of sent,
    /// whether it fell due as a retry, after a dead worker's lease, or late behind a backlog — as the
    /// Callx outbox expires an invitation past its call's deadline; `keepingRingEnded` (the
    /// `ignore-call-timeout` defect) sends it anyway.
    func claimDue(nowMs: Int64, leaseMs: Int64, limit: Int, keepingRingEnded: Bool = false) throws -> Claim {
        try database.transaction { db in
            var claim = Claim()
            if !keepingRingEnded {
                for row in try db.query(
                    """
                    SELECT delivery_id, notification_id, device_id, channel FROM ps_deliveries
                    WHERE state = 'pending' AND due_at_ms <= ?1 AND give_up_at_ms IS NOT NULL AND give_up_at_ms <= ?1
                    """, [.integer(nowMs)])
                {
                    guard let id = row.int64("delivery_id"), let notification = row.string("notification_id") else {
                        continue
                    }
                    try db.execute(
                        "UPDATE ps_deliveries SET state = 'failed', reason = ? WHERE delivery_id = ?",
                        [.text(Self.ringEndedReason), .integer(id)])
                    try Self.completeIfSettled(db, notificationId: notification, nowMs: nowMs)
                    claim.dropped.append(
                        Claim.Dropped(
                            notificationId: notification, deviceId: row.string("device_id") ?? "",
                            channel: row.string("channel") ?? ""))
                }
            }
            let rows = try db.query(
                "SELECT * FROM ps_deliveries WHERE state = 'pending' AND due_at_ms <= ? ORDER BY due_at_ms LIMIT ?",
                [.integer(nowMs), .int(limit)])
            claim.due = try rows.compactMap { row -> ServiceDelivery? in
                guard let id = row.int64("delivery_id") else { return nil }
                try db.execute(
                    "UPDATE ps_deliveries SET due_at_ms = ?, attempts = attempts + 1 WHERE delivery_id = ?",
                    [.integer(nowMs + leaseMs), .integer(id)])
                guard let destination = row.string("destination").flatMap(PushRequest.Destination.init(stored:)),
                    let channel = row.string("channel").flatMap(ServiceDelivery.Channel.init)
                else { return nil }
                let request = PushRequest(
                    destination: destination, method: "POST", path: row.string("path") ?? "",
                    headers: HTTPHeaders(storedJSON: row.string("headers") ?? "[]"), body: row["body"].bytes ?? [],
                    jobId: id)
                return ServiceDelivery(
                    id: id, notificationId: row.string("notification_id") ?? "",
                    deviceId: row.string("device_id") ?? "",
                    channel: channel, request: request, state: .pending, attempts: Int(row.int64("attempts") ?? 0) + 1,
                    giveUpAtMs: row.int64("give_up_at_ms"))
            }
            return claim
        }
    }

    /// Settles a delivery; the notification is complete once none of its deliveries is pending.
    func settle(_ delivery: ServiceDelivery, as state: ServiceDelivery.State, reason: String?, nowMs: Int64) throws {
        try database.transaction { db in
            try db.execute(
                "UPDATE ps_deliveries SET state = ?, reason = ? WHERE delivery_id = ?",
                [.text(state.rawValue), .text(reason), .integer(delivery.id)])
            try Self.completeIfSettled(db, notificationId: delivery.notificationId, nowMs: nowMs)
        }
    }

    /// Marks the notification complete once none of its deliveries is pending.
    private static func completeIfSettled(_ db: SQLiteConnection, notificationId: String, nowMs: Int64) throws {
        try db.execute(
            """
            UPDATE ps_notifications SET completed_at_ms = ? WHERE notification_id = ? AND completed_at_ms IS NULL
            AND NOT EXISTS (SELECT 1 FROM ps_deliveries WHERE notification_id = ? AND state = 'pending')
            """, [.integer(nowMs), .text(notificationId), .text(notificationId)])
    }

    /// Puts a delivery back in the queue, due at `dueAtMs`.
    func retry(_ delivery: ServiceDelivery, atMs dueAtMs: Int64, reason: String) throws {
        try database.transaction { db in
            try db.execute(
                "UPDATE ps_deliveries SET due_at_ms = ?, reason = ? WHERE delivery_id = ?",
                [.integer(dueAtMs), .text(reason), .integer(delivery.id)])
        }
    }

    /// When the next pending delivery falls due; nil when none is pending.
    func nextDueMs() throws -> Int64? {
        try database.withConnection { db in
            try db.queryFirst("SELECT MIN(due_at_ms) AS due FROM ps_deliveries WHERE state = 'pending'")?.int64("due")
        }
    }
}
