import HTTP
import JSON

/// Builds the provider pushes of one notification for one device, by the seed's rules:
///
/// - A call: iOS gets a VoIP push to the `voipToken` (`apns-push-type: voip`, topic `<bundle>.voip`,
///   priority 10, `apns-expiration` now + the ring timeout), its payload `aps: {}` plus string
///   members; Android a data-only FCM message (`android.priority: high`, ttl the ring timeout). The
///   members: `type` (`incoming_call`/`call_ended`), `call_id`, `caller_name`, `caller_handle`,
///   `caller_avatar`, `is_video` (`"true"`/`"false"`), `timeout`, the request's `data` as strings, and
///   on Android `title`/`body` when headings/contents are given.
/// - `call_ended` on iOS is never a VoIP push (the app reports every VoIP push to CallKit as a new
///   call): an alert push to the alert token when headings/contents are given, else a background
///   push (`content-available: 1`, priority 5).
/// - A normal notification: an alert push (topic = bundle ID; `aps.alert`, `aps.badge`, ttl →
///   `apns-expiration` now + ttl, `collapse_id` → `apns-collapse-id`) and an FCM message with a
///   `notification` block (`android.ttl`, `android.collapse_key`, `android.notification.channel_id`).
struct ServicePushBuilder: Sendable {
    var configuration: PushServiceConfiguration
    var fcmProjectID: String

    private var defects: Set<PushServiceDefect> { configuration.defects }

    /// The delivery of `notification` to `device`, at `nowMs`; `callId` is the call's ID (given or generated).
    func plan(_ notification: ServiceNotification, callId: String, to device: ServiceDevice, nowMs: Int64)
        -> PlannedDelivery
    {
        if let call = notification.call {
            return plan(call: call, notification, callId: callId, to: device, nowMs: nowMs)
        }
        switch device.platform {
        case .ios:
            return PlannedDelivery(
                deviceId: device.id, channel: .apns, request: apnsNotification(notification, device, nowMs: nowMs),
                settledState: .pending)
        case .android:
            return PlannedDelivery(
                deviceId: device.id, channel: .fcm, request: fcmNotification(notification, device),
                settledState: .pending)
        }
    }

    // MARK: Calls

    private func plan(
        call: ServiceNotification.Call, _ n: ServiceNotification, callId: String, to device: ServiceDevice, nowMs: Int64
    ) -> PlannedDelivery {
        let timeout = call.timeout ?? configuration.defaultCallTimeoutSeconds
        let ringEndsMs = nowMs + timeout * 1000
        let members = callMembers(call, n, callId: callId, timeout: timeout)
        switch device.platform {
        case .android:
            var data = members
            if let title = n.title { data.append(("title", .string(title))) }
            if let body = n.body { data.append(("body", .string(body))) }
            var android: [(key: String, value: JSONValue)] = [
                ("priority", normalPriority(call.action) ? "normal" : "high")
            ]
            if call.action == .incoming { android.append(("ttl", .string("\(timeout)s"))) }
            var message: [(key: String, value: JSONValue)] = [
                ("token", .string(device.token)), ("data", .object(data)), ("android", .object(android)),
            ]
            if defects.contains(.notificationBlockOnAndroid) {
                let title = n.title ?? (call.callerName.isEmpty ? "Incoming call" : call.callerName)
                message.append(("notification", ["title": .string(title), "body": .string(n.body ?? "Incoming call")]))
            }
            return PlannedDelivery(
                deviceId: device.id, channel: .fcm, request: fcm(message),
                settledState: .pending, giveUpAtMs: call.action == .incoming ? ringEndsMs : nil)
        case .ios where call.action == .incoming && defects.contains(.alertForCalls):
            let alert: JSONValue = [
                "title": .string(call.callerName.isEmpty ? "Incoming call" : call.callerName), "body": "Incoming call",
            ]
            let body = JSONValue.object([("aps", ["alert": alert])] + members)
            return PlannedDelivery(
                deviceId: device.id, channel: .apns,
                request: apns(device, token: device.token, type: "alert", priority: "10", body: body, headers: []),
                settledState: .pending, giveUpAtMs: ringEndsMs)
        case .ios where call.action == .incoming || defects.contains(.voipForEnded):
            guard let voip = device.voipToken else {
                if call.action == .ended { return plan(ended: n, members: members, to: device) }
                let counted: ServiceDelivery.State = defects.contains(.noVoIPTokenCountedOK) ? .successful : .failed
                return PlannedDelivery(
                    deviceId: device.id, channel: .voip, request: nil, settledState: counted,
                    reason: "the device registered no voipToken")
            }
            let body = JSONValue.object([("aps", .object([]))] + members)
            let expiration = ("apns-expiration", String(nowMs / 1000 + timeout))
            return PlannedDelivery(
                deviceId: device.id, channel: .voip,
                request: apns(
                    device, token: defects.contains(.voipToAlertToken) ? device.token : voip, type: "voip",
                    priority: "10", body: body, headers: [expiration]),
                settledState: .pending, giveUpAtMs: call.action == .incoming ? ringEndsMs : nil)
        case .ios:
            return plan(ended: n, members: members, to: device)
        }
    }

    /// `call_ended` on iOS: an alert when there is something to show, else a background push.
    private func plan(
        ended n: ServiceNotification, members: [(key: String, value: JSONValue)], to device: ServiceDevice
    )
        -> PlannedDelivery
    {
        let request: PushRequest
        if n.title != nil || n.body != nil {
            let body = JSONValue.object([("aps", ["alert": alert(n)])] + members)
            request = apns(device, token: device.token, type: "alert", priority: "10", body: body, headers: [])
        } else {
            let body = JSONValue.object([("aps", ["content-available": 1])] + members)
            request = apns(device, token: device.token, type: "background", priority: "5", body: body, headers: [])
        }
        return PlannedDelivery(deviceId: device.id, channel: .apns, request: request, settledState: .pending)
    }

    /// The seed's call members, all strings (but under `numeric-payload-values`), then `data`.
    /// Whether a defect sends this call action's Android message at normal priority.
    private func normalPriority(_ action: ServiceNotification.Call.Action) -> Bool {
        defects.contains(action == .incoming ? .normalPriorityCalls : .normalPriorityEnded)
    }

    private func callMembers(_ call: ServiceNotification.Call, _ n: ServiceNotification, callId: String, timeout: Int64)
        -> [(key: String, value: JSONValue)]
    {
        let numeric = defects.contains(.numericPayloadValues)
        var members: [(key: String, value: JSONValue)] = [
            ("type", call.action == .incoming ? "incoming_call" : "call_ended"), ("call_id", .string(callId)),
            ("caller_name", .string(call.callerName)), ("caller_handle", .string(call.handle)),
            ("caller_avatar", .string(call.avatar)),
            ("is_video", numeric ? .bool(call.isVideo) : .string(call.isVideo ? "true" : "false")),
            ("timeout", numeric ? .int(timeout) : .string(String(timeout))),
        ]
        let taken = Set(members.map(\.key) + ["aps", "title", "body"])
        for (key, value) in n.data where !taken.contains(key) { members.append((key, .string(Self.text(value)))) }
        return members
    }

    // MARK: Normal notifications

    private func apnsNotification(_ n: ServiceNotification, _ device: ServiceDevice, nowMs: Int64) -> PushRequest {
        var aps: [(key: String, value: JSONValue)] = []
        let visible = n.title != nil || n.body != nil
        if visible { aps.append(("alert", alert(n))) } else { aps.append(("content-available", 1)) }
        if let count = n.badgeCount, n.badgeType != "None", !defects.contains(.ignoreBadge) {
            aps.append(("badge", .int(count)))
        }
        var headers: [(String, String)] = []
        if let ttl = n.ttl, !defects.contains(.ignoreTTL) {
            headers.append(("apns-expiration", String(nowMs / 1000 + ttl)))
        }
        if let id = n.collapseId, !defects.contains(.ignoreCollapseID) { headers.append(("apns-collapse-id", id)) }
        let custom = n.data.filter { $0.key != "aps" }
        return apns(
            device, token: device.token, type: visible ? "alert" : "background", priority: visible ? "10" : "5",
            body: .object([("aps", .object(aps))] + custom), headers: headers)
    }

    private func fcmNotification(_ n: ServiceNotification, _ device: ServiceDevice) -> PushRequest {
        var message: [(key: String, value: JSONValue)] = [("token", .string(device.token))]
        var notification: [(key: String, value: JSONValue)] = []
        if let title = n.title { notification.append(("title", .string(title))) }
        if let body = n.body { notification.append(("body", .string(body))) }
        if let image = n.bigPicture { notification.append(("image", .string(image))) }
        if !notification.isEmpty { message.append(("notification", .object(notification))) }
        if !n.data.isEmpty { message.append(("data", .object(n.data.map { ($0.key, .string(Self.text($0.value))) }))) }
        var android: [(key: String, value: JSONValue)] = []
        if let ttl = n.ttl, !defects.contains(.ignoreTTL) { android.append(("ttl", .string("\(ttl)s"))) }
        if let id = n.collapseId, !defects.contains(.ignoreCollapseID) { android.append(("collapse_key", .string(id))) }
        if let channel = n.channelId, !defects.contains(.ignoreChannel) {
            android.append(("notification", ["channel_id": .string(channel)]))
        }
        if !android.isEmpty { message.append(("android", .object(android))) }
        return fcm(message)
    }

    // MARK: Requests

    private func alert(_ n: ServiceNotification) -> JSONValue {
        var alert: [(key: String, value: JSONValue)] = []
        if let title = n.title { alert.append(("title", .string(title))) }
        if let body = n.body { alert.append(("body", .string(body))) }
        return .object(alert)
    }

    private func apns(
        _ device: ServiceDevice, token: String, type: String, priority: String, body: JSONValue,
        headers extra: [(String, String)]
    ) -> PushRequest {
        var headers = HTTPHeaders()
        headers.add("apns-push-type", type)
        headers.add("apns-topic", type == "voip" ? configuration.bundleID + ".voip" : configuration.bundleID)
        headers.add("apns-priority", priority)
        for (name, value) in extra { headers.add(name, value) }
        headers.add("content-type", "application/json")
        let sandbox = device.sandbox && !defects.contains(.sandboxIgnored)
        return PushRequest(
            destination: .apns(sandbox ? .sandbox : .production), method: "POST", path: "/3/device/\(token)",
            headers: headers, body: body.bytes(), jobId: 0)
    }

    private func fcm(_ message: [(key: String, value: JSONValue)]) -> PushRequest {
        PushRequest(
            destination: .fcm, method: "POST", path: "/v1/projects/\(fcmProjectID)/messages:send",
            headers: ["content-type": "application/json"],
            body: JSONValue.object([("message", .object(message))]).bytes(),
            jobId: 0)
    }

    /// A `data` value as the string both platforms carry: strings as they are, other JSON as its text.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .null: return ""
        default: return value.serialized()
        }
    }
}
