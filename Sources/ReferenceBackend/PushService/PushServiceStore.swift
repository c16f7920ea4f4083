/// The push service's durable state in SQLite: devices, notifications and their delivery queue. A
/// notification and all its deliveries are committed in one transaction, so a crash never leaves a
/// notification half queued; pending deliveries survive a restart and are sent then.
public final class PushServiceStore: Sendable {
    let database: Database

    /// Opens (and creates the tables of) the database at `location`.
    public init(_ location: Database.Location) throws {
        database = try Database(location)
        try database.withConnection { db in try db.executeScript(PushServiceSchema.statements) }
    }

    // MARK: Devices

    /// Saves a registration; the same (platform, token) again updates that device. Returns its ID.
    func register(_ registration: DeviceRegistration, appId: String, nowMs: Int64) throws -> String {
        try database.transaction { db in
            let existing = try db.queryFirst(
                "SELECT device_id FROM ps_devices WHERE app_id = ? AND platform = ? AND token = ?",
                [.text(appId), .text(registration.platform.rawValue), .text(registration.token)])
            let id = existing?.string("device_id") ?? RandomIdentifier.uuid()
            try db.execute(
                """
                INSERT INTO ps_devices (device_id, app_id, external_id, platform, token, voip_token, sandbox,
                    updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (device_id) DO UPDATE SET external_id = excluded.external_id,
                    voip_token = excluded.voip_token, sandbox = excluded.sandbox, updated_at_ms = excluded.updated_at_ms
                """,
                [
                    .text(id), .text(appId), .text(registration.externalId), .text(registration.platform.rawValue),
                    .text(registration.token), .text(registration.voipToken), .bool(registration.sandbox),
                    .integer(nowMs),
                ])
            return id
        }
    }

    /// Deletes a device; false when the app has none with this ID.
    func deleteDevice(appId: String, id: String) throws -> Bool {
        try database.transaction { db in
            try db.execute("DELETE FROM ps_devices WHERE app_id = ? AND device_id = ?", [.text(appId), .text(id)]) > 0
        }
    }

    /// The devices of these external IDs, oldest registration first.
    func devices(appId: String, externalIds: [String]) throws -> [ServiceDevice] {
        guard !externalIds.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: externalIds.count).joined(separator: ", ")
        return try database.withConnection { db in
            try db.query(
                "SELECT * FROM ps_devices WHERE app_id = ? AND external_id IN (\(marks)) ORDER BY updated_at_ms, rowid",
                [.text(appId)] + externalIds.map { .text($0) }
            ).compactMap(Self.device)
        }
    }

    /// The devices an earlier `incoming` call with `callId` was queued for (still registered).
    func devicesOfCall(appId: String, callId: String) throws -> [ServiceDevice] {
        try database.withConnection { db in
            try db.query(
                """
                SELECT DISTINCT d.* FROM ps_devices d JOIN ps_deliveries q ON q.device_id = d.device_id
                JOIN ps_notifications n ON n.notification_id = q.notification_id
                WHERE n.app_id = ? AND n.call_id = ? AND n.call_action = 'incoming' ORDER BY d.updated_at_ms
                """, [.text(appId), .text(callId)]
            ).compactMap(Self.device)
        }
    }

    /// Every device of the app, oldest first (tests and diagnostics).
    public func allDevices(appId: String) throws -> [ServiceDevice] {
        try database.withConnection { db in
            try db.query("SELECT * FROM ps_devices WHERE app_id = ? ORDER BY updated_at_ms", [.text(appId)])
                .compactMap(Self.device)
        }
    }

    /// APNs called the VoIP token dead: it is forgotten; the device keeps its alert token.
    func dropVoIPToken(deviceId: String, token: String) throws {
        try database.transaction { db in
            try db.execute(
                "UPDATE ps_devices SET voip_token = NULL WHERE device_id = ? AND voip_token = ?",
                [.text(deviceId), .text(token)])
        }
    }

    /// The device's (alert or FCM) token is dead: the device is gone.
    func dropDevice(deviceId: String) throws {
        try database.transaction { db in
            try db.execute("DELETE FROM ps_devices WHERE device_id = ?", [.text(deviceId)])
        }
    }

    private static func device(_ row: SQLiteRow) -> ServiceDevice? {
        guard let id = row.string("device_id"),
            let platform = row.string("platform").flatMap(ServiceDevice.Platform.init),
            let token = row.string("token")
        else { return nil }
        return ServiceDevice(
            id: id, externalId: row.string("external_id") ?? "", platform: platform, token: token,
            voipToken: row.string("voip_token"), sandbox: row.int64("sandbox") == 1)
    }
}
