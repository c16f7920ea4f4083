import HTTP
import JSON

/// The reference backend's alternate API shape (`--api-shape alternate`): the same `CallService`,
/// rules and defects as `CallxAPI`, behind other routes and bodies, so that ringcheck can prove it
/// drives a backend it has never seen through a target file alone. Reference routes are 404 here.
///
/// - `PUT /api/push-registrations` `{platform, token, appId, apnsEnvironment?}` → 200 `{registration}`
/// - `DELETE /api/push-registrations/{apnsVoip|fcm}` → 204
/// - `POST /api/v2/calls` `{id, to, requestId, video?}` → 201 `{call}` (an idempotent replay too)
/// - `GET /api/v2/calls/{id}` → 200 `{call}`
/// - `POST /api/v2/calls/{id}/hangup` `{requestId, reason}` → 200 `{call}`
/// - `POST /api/v2/calls/{id}/media-token` `{requestId}` → 200 `{call, media}`: from the callee's
///   device while the call rings this is the answer (no answer route exists)
/// - `GET /api/events?after=CURSOR&max=N` → 200 `{events, cursor, gap}`
///
/// The installation (device) is named only by the `X-Device-Id` header, never by path, body or
/// query. Authentication is `Authorization: Bearer <token>`, as in the reference API. Errors are
/// `{"error": {"code", "message"}}` with the reference's statuses; a conflict that concerns a call
/// carries its snapshot under `call`.
public struct AlternateAPI: HTTPHandler {
    public let service: CallService
    /// The reference API, for its authentication and body parsing (one implementation of each).
    let reference: CallxAPI

    public init(service: CallService) {
        self.service = service
        reference = CallxAPI(service: service)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await route(request).response
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest) async -> APIResult {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            percentDecode(String($0))
        }
        let isCalls = parts.count >= 3 && parts[0] == "api" && parts[1] == "v2" && parts[2] == "calls"
        switch parts.count {
        case 2 where parts[0] == "api" && parts[1] == "push-registrations":
            return await reference.authenticated(request, allowed: ["PUT"]) { user in
                try register(request, user: user)
            }
        case 3 where parts[0] == "api" && parts[1] == "push-registrations":
            guard let kind = PushKind(rawValue: parts[2]) else {
                return APIError(404, "not_found", "the platform must be apnsVoip or fcm").result
            }
            return await reference.authenticated(request, allowed: ["DELETE"]) { user in
                service.deletePushToken(user: user, installationId: try deviceId(request), kind: kind)
            }
        case 3 where isCalls:
            return await reference.authenticated(request, allowed: ["POST"]) { user in
                try create(request, user: user)
            }
        case 4 where isCalls:
            return await reference.authenticated(request, allowed: ["GET"]) { user in
                AlternateShape.wrapped(service.snapshot(user: user, callId: parts[3]), in: "call")
            }
        case 5 where isCalls && parts[4] == "hangup":
            return await reference.authenticated(request, allowed: ["POST"]) { user in
                try hangup(request, user: user, callId: parts[3])
            }
        case 5 where isCalls && parts[4] == "media-token":
            return await reference.authenticated(request, allowed: ["POST"]) { user in
                try await mediaToken(request, user: user, callId: parts[3])
            }
        case 2 where parts[0] == "api" && parts[1] == "events":
            return await reference.authenticated(request, allowed: ["GET"]) { user in
                try events(request, user: user)
            }
        default: break
        }
        return APIError(404, "not_found", "no route \(request.method) \(request.path)").result
    }

    // MARK: Installation

    /// The installation, from `X-Device-Id` only; a request without it is refused.
    func deviceId(_ request: HTTPRequest) throws(APIError) -> String {
        guard let device = try optionalDeviceId(request) else {
            throw .badRequest("the X-Device-Id header is required: it names the installation (device)")
        }
        return device
    }

    /// The installation when the request names one in `X-Device-Id`.
    func optionalDeviceId(_ request: HTTPRequest) throws(APIError) -> String? {
        guard let device = request.headers["x-device-id"] else { return nil }
        try validateIdentifier(device, field: "X-Device-Id")
        return device
    }

    /// What makes two requests "the same operation": method, path, device and the sorted body.
    func fingerprint(_ request: HTTPRequest, _ body: JSONValue, device: String?) -> String {
        "\(request.method.uppercased()) \(request.path)\nx-device-id: \(device ?? "")\n"
            + body.serialized(sortedKeys: true)
    }

    // MARK: Registrations and events

    private func register(_ request: HTTPRequest, user: BackendUser) throws -> APIResult {
        let device = try deviceId(request)
        let body = try reference.parseBody(request)
        let platform = try RequestBody(body).string("platform")
        guard let kind = PushKind(rawValue: platform) else {
            throw APIError.badRequest("platform must be \"apnsVoip\" or \"fcm\"")
        }
        let saved = service.registerPushToken(user: user, installationId: device, kind: kind, body: body)
        return AlternateShape.wrapped(saved, in: "registration")
    }

    private func events(_ request: HTTPRequest, user: BackendUser) throws -> APIResult {
        let device = try deviceId(request)
        let query = request.query
        var max: Int?
        if let text = query["max"] {
            guard let value = Int(text) else { throw APIError.badRequest("max must be an integer") }
            max = value
        }
        let page = service.events(user: user, installationId: device, cursor: query["after"], limit: max)
        guard page.status == 200, let json = try? JSONValue.parse(page.body) else {
            return AlternateShape.refusal(page)
        }
        return APIResult(
            status: 200,
            json: [
                "events": json["events"] ?? [], "cursor": json["nextCursor"] ?? .null, "gap": json["gap"] ?? false,
            ])
    }
}
