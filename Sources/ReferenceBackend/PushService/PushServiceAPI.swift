import HTTP
import JSON
import Signing

/// The push service's REST API (`push-service-rest-api.txt`):
///
/// - `POST /api/v1/apps/{appId}/devices` (no key: apps call it) `{"external_id", "platform", "token",
///   "voipToken"?, "sandbox"?}` → 200 `{"id"}`; the same (platform, token) again updates that device.
///   `DELETE /api/v1/apps/{appId}/devices/{id}` → 200 `{"success": true}`.
/// - `POST /notifications` (also `/api/v1/notifications`) with `Authorization: Key <REST key>`
///   (`Basic` and `Bearer` with the key as-is too) → 200 `{"id", "external_id": null}`, 200 `{"id": "",
///   "errors": ["All included players are not subscribed"]}` when the audience has no device, 400
///   `{"errors": [...]}` for a malformed body, 403 for a wrong App ID or key.
/// - `GET /notifications/{id}?app_id=` (same key) → the delivery counts `successful`, `failed`,
///   `errored`, `remaining`, `queued_at`, `completed_at` (UNIX seconds; null until nothing remains),
///   with `headings`, `contents` and `data` as sent.
public struct PushServiceAPI: HTTPHandler {
    public let configuration: PushServiceConfiguration
    let store: PushServiceStore
    let builder: ServicePushBuilder
    let worker: DeliveryWorker
    let clock: MillisecondClock
    let log: BackendLog?

    /// The answer when nobody in the audience has a device.
    public static let notSubscribed = "All included players are not subscribed"

    private var defects: Set<PushServiceDefect> { configuration.defects }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
            percentDecode(String($0))
        }
        let method = request.method.uppercased()
        let result: APIResult
        switch (method, parts.count) {
        case ("POST", 1) where parts == ["notifications"], ("POST", 3) where parts == ["api", "v1", "notifications"]:
            result = notify(body: request.body, authorization: request.headers["authorization"])
        case ("GET", 2) where parts[0] == "notifications":
            result = notification(
                parts[1], appId: request.query["app_id"], authorization: request.headers["authorization"])
        case ("POST", 5) where parts.starts(with: ["api", "v1", "apps"]) && parts[4] == "devices":
            result = registerDevice(appId: parts[3], body: request.body)
        case ("DELETE", 6) where parts.starts(with: ["api", "v1", "apps"]) && parts[4] == "devices":
            result = deleteDevice(appId: parts[3], id: parts[5])
        default:
            result = ServiceErrors(status: 404, "no route \(request.method) \(request.path)").result
        }
        return result.response
    }

    // MARK: Auth

    /// Whether `Authorization` carries the app's REST key (`Key`, `Basic` or `Bearer`, the key as-is).
    func authorized(_ authorization: String?) -> Bool {
        if defects.contains(.acceptAnyKey) { return true }
        guard let header = authorization else { return false }
        let pieces = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard pieces.count == 2 else { return false }
        var schemes: Set<String> = ["key", "basic", "bearer"]
        if defects.contains(.keySchemeOnly) { schemes = ["key"] }
        guard schemes.contains(pieces[0].lowercased()) else { return false }
        return HMAC.constantTimeEquals(Array(String(pieces[1]).trimmedSpaces.utf8), Array(configuration.apiKey.utf8))
    }

    func forbidden(_ why: String) -> APIResult { ServiceErrors(status: 403, why).result }

    static let wrongKey =
        "Please include a case-sensitive header of Authorization: Key <REST API key> with a valid REST API key"

    // MARK: Notifications

    func notify(body bytes: [UInt8], authorization: String?) -> APIResult {
        let now = clock()
        do {
            guard let body = try? JSONValue.parse(bytes) else { throw ServiceErrors("the body is not JSON") }
            let appId = try ServiceNotification.appId(of: body)
            guard appId == configuration.appId else {
                return forbidden("app_id \(appId.prefix(64)) is not a known app")
            }
            guard authorized(authorization) else { return forbidden(Self.wrongKey) }
            let notification = try ServiceNotification(json: body)
            var callId = notification.call?.id ?? ""
            if notification.call != nil && callId.isEmpty && !defects.contains(.noGeneratedID) {
                callId = RandomIdentifier.uuid()
            }
            let externalIds =
                defects.contains(.firstExternalIdOnly)
                ? Array(notification.externalIds.prefix(1)) : notification.externalIds
            var devices = try store.devices(appId: appId, externalIds: externalIds)
            if notification.call?.action == .ended {
                let known = Set(devices.map(\.id))
                devices += try store.devicesOfCall(appId: appId, callId: callId).filter { !known.contains($0.id) }
            }
            guard !devices.isEmpty else {
                log?.write(
                    "notification refused: none of \(notification.externalIds.count) external ID(s) has a device")
                return APIResult(status: 200, json: ["id": "", "errors": [.string(Self.notSubscribed)]])
            }
            let pushedCallId =
                notification.call?.action == .ended && defects.contains(.endedNewID) ? RandomIdentifier.uuid() : callId
            let planned = devices.map { builder.plan(notification, callId: pushedCallId, to: $0, nowMs: now) }
            let id = RandomIdentifier.uuid()
            try store.queue(
                notificationId: id, appId: appId, callId: notification.call == nil ? nil : callId,
                callAction: notification.call?.action.rawValue, request: bytes, deliveries: planned, nowMs: now)
            worker.signal.notify()
            let kind = notification.call.map { "call \($0.action.rawValue) \(callId)" } ?? "notification"
            log?.write("notification \(id) (\(kind)) queued for \(planned.count) device(s)")
            return APIResult(status: 200, json: ["id": .string(id), "external_id": .null])
        } catch let error as ServiceErrors {
            return error.result
        } catch {
            log?.write("notification failed: \(error)")
            return ServiceErrors(status: 500, "the notification could not be queued").result
        }
    }

    func notification(_ id: String, appId: String?, authorization: String?) -> APIResult {
        guard let appId, !appId.isEmpty else {
            return ServiceErrors("app_id is required: GET /notifications/{id}?app_id=<App ID>").result
        }
        guard appId == configuration.appId else { return forbidden("app_id \(appId.prefix(64)) is not a known app") }
        guard authorized(authorization) else { return forbidden(Self.wrongKey) }
        guard let found = try? store.notification(appId: appId, id: id) else {
            return ServiceErrors(status: 404, "Couldn't find a notification with id \(id.prefix(64))").result
        }
        var counts = found.counts
        if defects.contains(.countsIgnoreFailures) {
            counts.successful += counts.failed + counts.errored
            counts.failed = 0
            counts.errored = 0
        }
        let sent = (try? JSONValue.parse(found.request)) ?? .null
        return APIResult(
            status: 200,
            json: [
                "id": .string(id), "app_id": .string(appId), "successful": .int(counts.successful),
                "failed": .int(counts.failed), "errored": .int(counts.errored), "remaining": .int(counts.remaining),
                "queued_at": .int(found.queuedAtMs / 1000),
                "completed_at": found.completedAtMs.map { .int($0 / 1000) } ?? .null,
                "headings": sent["headings"] ?? .null, "contents": sent["contents"] ?? .null,
                "data": sent["data"] ?? .null,
            ])
    }

    // MARK: Devices

    func registerDevice(appId: String, body bytes: [UInt8]) -> APIResult {
        guard appId == configuration.appId else { return forbidden("app \(appId.prefix(64)) is not a known app") }
        do {
            guard let body = try? JSONValue.parse(bytes) else { throw ServiceErrors("the body is not JSON") }
            let registration = try DeviceRegistration(
                json: body, lenient: defects.contains(.acceptBadRegistration))
            let id = try store.register(registration, appId: appId, nowMs: clock())
            log?.write(
                "device \(id) registered: \(registration.platform.rawValue) of \(registration.externalId)"
                    + (registration.voipToken == nil ? "" : " with a voipToken")
                    + (registration.sandbox ? " (sandbox)" : ""))
            return APIResult(status: 200, json: ["id": .string(id)])
        } catch let error as ServiceErrors {
            return error.result
        } catch {
            log?.write("device registration failed: \(error)")
            return ServiceErrors(status: 500, "the device could not be saved").result
        }
    }

    func deleteDevice(appId: String, id: String) -> APIResult {
        guard appId == configuration.appId else { return forbidden("app \(appId.prefix(64)) is not a known app") }
        guard let deleted = try? store.deleteDevice(appId: appId, id: id) else {
            return ServiceErrors(status: 500, "the device could not be deleted").result
        }
        guard deleted else { return ServiceErrors(status: 404, "no device with id \(id.prefix(64))").result }
        log?.write("device \(id) deleted")
        return APIResult(status: 200, json: ["success": true])
    }
}

extension String {
    fileprivate var trimmedSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
