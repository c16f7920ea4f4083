import HTTP
import JSON

/// Which REST API the reference push service serves: the seed's, or the same service behind other routes and
/// member names (to show that a target file alone lets ringcheck judge a service shaped otherwise).
public enum PushServiceAPIShape: String, Sendable, Equatable, CaseIterable {
    /// The seed's routes and names (`PushServiceAPI`).
    case reference
    /// `PushServiceAlternateAPI`.
    case alternate
    /// `PushServiceAlternateAPI` whose installation routes also want the REST key and whose registration answers
    /// `{"installationId"}` (while a message's answer keeps `id`): a target needs `serviceApp.auth` and a
    /// `fieldNames` rename scoped to the devices route.
    case alternateKeyed = "alternate-keyed"
}

/// The reference push service behind a differently shaped API (`--api-shape alternate`): the same rules,
/// defects, queue and pushes as `PushServiceAPI`, which it calls, but other routes and other member names. The
/// seed's routes answer 404, and a body member under the seed's name is ignored like any unknown member.
///
/// - `POST /v2/apps/{appId}/installations` `{"externalId", "os", "pushToken", "pushKitToken"?, "apnsSandbox"?}`
///   → 200 `{"id"}`; `DELETE /v2/apps/{appId}/installations/{id}`.
/// - `POST /v2/messages` `{"appId", "audience": {"externalId": [...]}, "heading", "message", "call": {…,
///   "callerName", "video"}, "collapseKey", "badge", "androidChannel", …}` (same `Authorization`) → 200 `{"id",
///   "externalId": null}`; refusals carry `problems` instead of `errors`.
/// - `GET /v2/messages/{id}?appId=` → `delivered`, `rejected`, `errored`, `pending`, `queuedAt`, `completedAt`.
public struct PushServiceAlternateAPI: HTTPHandler {
    let inner: PushServiceAPI
    /// `alternate-keyed`: the installation routes want the REST key, and a registration answers `installationId`.
    var keyedInstallations = false

    /// The seed's member name → this shape's (applied to every object key of every body, both ways).
    public static let fieldNames: [String: String] = [
        "app_id": "appId", "include_aliases": "audience", "external_id": "externalId", "headings": "heading",
        "contents": "message", "caller_name": "callerName", "is_video": "video", "collapse_id": "collapseKey",
        "ios_badgeCount": "badge", "android_channel_id": "androidChannel", "platform": "os", "token": "pushToken",
        "voipToken": "pushKitToken", "sandbox": "apnsSandbox", "successful": "delivered", "failed": "rejected",
        "remaining": "pending", "queued_at": "queuedAt", "completed_at": "completedAt", "errors": "problems",
    ]
    static let seedNames = Dictionary(uniqueKeysWithValues: fieldNames.map { ($0.value, $0.key) })

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
            percentDecode(String($0))
        }
        let authorization = request.headers["authorization"]
        let body = Self.toSeed(request.body)
        let result: APIResult
        switch (request.method.uppercased(), parts.count) {
        case ("POST", 2) where parts == ["v2", "messages"]:
            result = inner.notify(body: body, authorization: authorization)
        case ("GET", 3) where parts.starts(with: ["v2", "messages"]):
            result = inner.notification(parts[2], appId: request.query["appId"], authorization: authorization)
        case ("POST", 4) where parts[0] == "v2" && parts[1] == "apps" && parts[3] == "installations":
            if keyedInstallations && !inner.authorized(authorization) {
                result = inner.forbidden(PushServiceAPI.wrongKey)
            } else {
                let answer = inner.registerDevice(appId: parts[2], body: body)
                let named = keyedInstallations ? Self.renamed(answer.body) { $0 == "id" ? "installationId" : $0 } : nil
                result = named.map { APIResult(status: answer.status, body: $0) } ?? answer
            }
        case ("DELETE", 5) where parts[0] == "v2" && parts[1] == "apps" && parts[3] == "installations":
            result =
                keyedInstallations && !inner.authorized(authorization)
                ? inner.forbidden(PushServiceAPI.wrongKey) : inner.deleteDevice(appId: parts[2], id: parts[4])
        default:
            result = ServiceErrors(status: 404, "no route \(request.method) \(request.path)").result
        }
        return APIResult(status: result.status, body: Self.fromSeed(result.body)).response
    }

    /// A request body in the seed's names: this shape's names renamed, the seed's own (where this shape names the
    /// member otherwise) put out of the way, so the service never reads them. Bytes that are no JSON stay as sent.
    static func toSeed(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty, let json = try? JSONValue.parse(bytes) else { return bytes }
        return renamed(json) { seedNames[$0] ?? (fieldNames[$0] == nil ? $0 : "unknown member " + $0) }.bytes()
    }

    /// An answer in this shape's names.
    static func fromSeed(_ bytes: [UInt8]) -> [UInt8] {
        renamed(bytes) { fieldNames[$0] ?? $0 } ?? bytes
    }

    /// `bytes` (JSON) with every object key renamed, nil when they are no JSON.
    static func renamed(_ bytes: [UInt8], _ name: (String) -> String) -> [UInt8]? {
        guard !bytes.isEmpty, let json = try? JSONValue.parse(bytes) else { return nil }
        return renamed(json, name).bytes()
    }

    static func renamed(_ value: JSONValue, _ name: (String) -> String) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.map { (key: name($0.key), value: renamed($0.value, name)) })
        case .array(let items): return .array(items.map { renamed($0, name) })
        default: return value
        }
    }
}
