import HTTP
import JSON

/// Builds the wake-up pushes of the seed for one device at the moment of sending: an APNs VoIP push
/// (`apns-push-type: voip`, topic `<bundle>.voip`, priority 10, `apns-expiration` now + the wake
/// window, body `{"call_id", "from_number", "from_name", "to_number"}`), or an FCM v1 data message
/// (`android.priority` high, ttl the wake window, string `data` with `type`, the call fields and
/// `from_name` `""` when the webhook has none; no notification block).
public struct DialStackPushBuilder: Sendable {
    /// The call fields the pushes carry, in the seed's order.
    public static let callFields = ["call_id", "from_number", "from_name", "to_number"]

    public var settings: PushMessageSettings
    public var wakeWindowSeconds: Int64
    public var defects: Set<DialStackDefect>
    /// The key the call_id goes under (`DialStackConfiguration.callIdKey`).
    public var callIdKey: String

    public init(
        settings: PushMessageSettings, wakeWindowSeconds: Int64 = 30, defects: Set<DialStackDefect> = [],
        callIdKey: String = "call_id"
    ) {
        self.settings = settings
        self.wakeWindowSeconds = wakeWindowSeconds
        self.defects = defects
        self.callIdKey = callIdKey
    }

    /// The key a call field travels under: `callIdKey` for the call_id, its own name for the others.
    func key(_ name: String) -> String { name == "call_id" ? callIdKey : name }

    /// The request that wakes `device` for the call in `data` (the webhook's `data`), sent at `nowMs`;
    /// `sequence` numbers it in the log.
    public func request(for device: PushRegistration, data: JSONValue, nowMs: Int64, sequence: Int64) -> PushRequest {
        var fields = Self.callFields
        if defects.contains(.missingCallID) { fields.removeAll { $0 == "call_id" } }
        switch device.kind {
        case .apnsVoip: return apnsRequest(device, data: data, fields: fields, nowMs: nowMs, sequence: sequence)
        case .fcm: return fcmRequest(device, data: data, fields: fields, sequence: sequence)
        }
    }

    private func apnsRequest(
        _ device: PushRegistration, data: JSONValue, fields: [String], nowMs: Int64, sequence: Int64
    ) -> PushRequest {
        let expiration = defects.contains(.apnsExpiration0) ? "0" : String(nowMs / 1000 + wakeWindowSeconds)
        let headers = settings.voipHeaders(appId: device.appId, expiration: expiration)
        // As the seed's payload object: the webhook's values as they are; a field the webhook lacks is
        // left out (JSON.stringify drops undefined). No `aps`: APNs does not need one for VoIP.
        let body = JSONValue.object(fields.compactMap { name in data[name].map { (key(name), $0) } })
        return PushRequest(
            destination: .apns(device.apnsEnvironment ?? .production), method: "POST",
            path: "/3/device/\(device.token)", headers: headers, body: body.bytes(), jobId: sequence)
    }

    private func fcmRequest(_ device: PushRegistration, data: JSONValue, fields: [String], sequence: Int64)
        -> PushRequest
    {
        var values: [(key: String, value: JSONValue)] = [("type", .string(DialStackWebhookEvent.wakeUpType))]
        for name in fields {
            if let text = Self.dataString(data[name]) {
                values.append((key(name), .string(text)))
            } else if name == "from_name" {
                values.append((name, ""))  // the seed's `from_name || ''`
            }
        }
        let ttl = defects.contains(.fcmTTLLong) ? "3600s" : "\(wakeWindowSeconds)s"
        var message: [(key: String, value: JSONValue)] = [
            ("token", .string(device.token)),
            ("android", ["priority": "high", "ttl": .string(ttl)]),
            ("data", .object(values)),
        ]
        if defects.contains(.fcmNotificationBlock) {
            let caller = Self.dataString(data["from_name"]).flatMap { $0.isEmpty ? nil : $0 }
            message.append(
                ("notification", ["title": .string(caller ?? "Incoming call"), "body": "Incoming call"]))
        }
        return PushRequest(
            destination: .fcm, method: "POST", path: "/v1/projects/\(settings.fcmProjectID)/messages:send",
            headers: ["content-type": "application/json"],
            body: JSONValue.object([("message", .object(message))]).bytes(),
            jobId: sequence)
    }

    /// An FCM data value: every value must be a string, so a number or boolean travels as its JSON
    /// text; null, absent, arrays and objects have none.
    static func dataString(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }
}
