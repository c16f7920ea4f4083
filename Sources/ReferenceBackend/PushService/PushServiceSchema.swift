/// The push service's tables: devices, notifications, and the durable delivery queue (one row per
/// push to one device, settled by the delivery worker).
enum PushServiceSchema {
    static let statements = """
        CREATE TABLE IF NOT EXISTS ps_devices (
            device_id TEXT PRIMARY KEY,
            app_id TEXT NOT NULL,
            external_id TEXT NOT NULL,
            platform TEXT NOT NULL CHECK (platform IN ('ios', 'android')),
            token TEXT NOT NULL,
            voip_token TEXT,
            sandbox INTEGER NOT NULL DEFAULT 0,
            updated_at_ms INTEGER NOT NULL,
            UNIQUE (app_id, platform, token)
        );
        CREATE INDEX IF NOT EXISTS ps_devices_by_user ON ps_devices(app_id, external_id);

        CREATE TABLE IF NOT EXISTS ps_notifications (
            notification_id TEXT PRIMARY KEY,
            app_id TEXT NOT NULL,
            call_id TEXT,
            call_action TEXT,
            request BLOB NOT NULL,
            queued_at_ms INTEGER NOT NULL,
            completed_at_ms INTEGER
        );
        CREATE INDEX IF NOT EXISTS ps_notifications_by_call ON ps_notifications(app_id, call_id);

        CREATE TABLE IF NOT EXISTS ps_deliveries (
            delivery_id INTEGER PRIMARY KEY AUTOINCREMENT,
            notification_id TEXT NOT NULL REFERENCES ps_notifications(notification_id),
            device_id TEXT NOT NULL,
            channel TEXT NOT NULL CHECK (channel IN ('voip', 'apns', 'fcm')),
            destination TEXT NOT NULL,
            path TEXT NOT NULL,
            headers TEXT NOT NULL,
            body BLOB NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'successful', 'failed', 'errored')),
            reason TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at_ms INTEGER NOT NULL,
            give_up_at_ms INTEGER
        );
        CREATE INDEX IF NOT EXISTS ps_deliveries_due ON ps_deliveries(state, due_at_ms);
        CREATE INDEX IF NOT EXISTS ps_deliveries_by_notification ON ps_deliveries(notification_id);
        """
}
