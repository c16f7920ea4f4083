import HTTP
import JSON

/// The reference backend's HTTP API, as in the Callx backend reference design:
///
/// - `POST /v1/accounts` — sign-up, without a session: `{displayName, handle?}` → 201 `{userId,
///   displayName, handle, token}` (`CallService.signUp`)
/// - `PUT|DELETE /v1/installations/{id}/push-tokens/{apnsVoip|fcm}`
/// - `POST /v1/calls`, `GET /v1/calls/{id}`, `POST /v1/calls/{id}/answer|end|media-session`
/// - `GET /v1/call-events?installationId=…&cursor=…&limit=…` — the feed of one installation,
///   named by the `installationId` query parameter (or, failing that, an `x-installation-id`
///   header). An installation not yet known is bound to the reader; another user's is refused.
///
/// Every other request authenticates with `Authorization: Bearer <token>` (a configured user's or a
/// signed-up account's); identity comes from the token only. Errors are `{"error": {"code",
/// "message"}}`; conflicts that concern a call carry its snapshot's members beside `error`.
public struct CallxAPI: HTTPHandler {
    public let service: CallService

    public init(service: CallService) { self.service = service }

    /// A backend on `store` with the given users, configuration and clock.
    public init(
        store: CallStore, users: UserDirectory = .testUsers,
        configuration: ReferenceBackendConfiguration = ReferenceBackendConfiguration(),
        clock: @escaping MillisecondClock = SystemClock.milliseconds
    ) {
        self.init(service: CallService(store: store, users: users, configuration: configuration, clock: clock))
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let result = await route(request)
        guard service.defects.contains(.flatCallerSnapshot), let json = try? JSONValue.parse(result.body) else {
            return result.response
        }
        return APIResult(status: result.status, json: CallxMessages.flatCaller(json)).response
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest) async -> APIResult {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            percentDecode(String($0))
        }
        let method = request.method.uppercased()
        switch parts.count {
        case 5 where parts[0] == "v1" && parts[1] == "installations" && parts[3] == "push-tokens":
            guard let kind = PushKind(rawValue: parts[4]) else {
                return APIError(404, "not_found", "push token kind must be apnsVoip or fcm").result
            }
            return await authenticated(request, allowed: ["PUT", "DELETE"]) { user in
                if method == "PUT" {
                    let body = try parseBody(request)
                    return service.registerPushToken(user: user, installationId: parts[2], kind: kind, body: body)
                }
                return service.deletePushToken(user: user, installationId: parts[2], kind: kind)
            }
        case 2 where parts[0] == "v1" && parts[1] == "accounts":
            // Sign-up: the one request without a session.
            guard method == "POST" else { return APIError(405, "method_not_allowed", "use POST").result }
            do { return service.signUp(body: try parseBody(request)) } catch { return error.result }
        case 2 where parts[0] == "v1" && parts[1] == "calls":
            return await authenticated(request, allowed: ["POST"]) { user in
                let body = try parseBody(request)
                return service.createCall(user: user, body: body, fingerprint: fingerprint(request, body))
            }
        case 3 where parts[0] == "v1" && parts[1] == "calls":
            return await authenticated(request, allowed: ["GET"]) { user in
                service.snapshot(user: user, callId: parts[2])
            }
        case 4 where parts[0] == "v1" && parts[1] == "calls":
            let callId = parts[2]
            switch parts[3] {
            case "answer":
                return await authenticated(request, allowed: ["POST"]) { user in
                    let body = try parseBody(request)
                    return await service.answer(
                        user: user, callId: callId, body: body, fingerprint: fingerprint(request, body))
                }
            case "end":
                return await authenticated(request, allowed: ["POST"]) { user in
                    let body = try parseBody(request)
                    return service.end(user: user, callId: callId, body: body, fingerprint: fingerprint(request, body))
                }
            case "media-session":
                return await authenticated(request, allowed: ["POST"]) { user in
                    let body = request.body.isEmpty ? JSONValue.object([]) : try parseBody(request)
                    return service.mediaSession(user: user, callId: callId, body: body)
                }
            default: break
            }
        case 2 where parts[0] == "v1" && parts[1] == "call-events":
            return await authenticated(request, allowed: ["GET"]) { user in
                let query = request.query
                guard let installationId = query["installationId"] ?? request.headers["x-installation-id"] else {
                    throw APIError.badRequest(
                        "installationId query parameter is required: the feed is per installation")
                }
                var limit: Int?
                if let text = query["limit"] {
                    guard let value = Int(text) else { throw APIError.badRequest("limit must be an integer") }
                    limit = value
                }
                return service.events(user: user, installationId: installationId, cursor: query["cursor"], limit: limit)
            }
        default: break
        }
        return APIError(404, "not_found", "no route \(request.method) \(request.path)").result
    }

    /// Checks the method and the bearer token, then runs `body` as that user.
    func authenticated(
        _ request: HTTPRequest, allowed: [String], _ body: (BackendUser) async throws -> APIResult
    ) async -> APIResult {
        await authenticatedRequest(request, user: service.user(forToken:), allowed: allowed, body)
    }

    func parseBody(_ request: HTTPRequest) throws(APIError) -> JSONValue { try jsonObjectBody(request) }

    /// What makes two requests "the same operation": method, path and the body with keys sorted.
    private func fingerprint(_ request: HTTPRequest, _ body: JSONValue) -> String {
        "\(request.method.uppercased()) \(request.path)\n\(body.serialized(sortedKeys: true))"
    }
}
