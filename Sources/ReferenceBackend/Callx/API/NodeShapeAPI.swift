import HTTP
import JSON
import Signing

/// The reference backend in the shape of a real public Callx backend ringcheck was tried on
/// (`--api-shape node`): the alternate shape's routes (`AlternateAPI`) with everything else that
/// backend did differently, so a test can prove that a target file alone judges such an API.
///
/// - Token kinds are `voip` and `fcm` (`PUT /api/push-registrations {platform: voip}`,
///   `DELETE /api/push-registrations/voip`).
/// - No idempotency keys: create, hang-up and media-token bodies carry no `requestId`.
/// - The caller's device is named on create too (`X-Device-Id`, required). A create for a callee
///   with no registered device is refused with 404 `no_device`.
/// - Snapshots and events carry `revision` as a JSON number, states as `RINGING`, `ACTIVE`,
///   `ENDED`, end reasons in its own words (`cancel`, `hangup`, `decline`, `timeout`, …); the events
///   feed's `cursor` is a number.
/// - The media-token request (which answers from the callee's device) returns only
///   `{"accessToken": JWT}`, whose `exp` claim is the credential's expiry; no snapshot.
/// - No video calls: `video` in a create is ignored.
public struct NodeShapeAPI: HTTPHandler {
    let alternate: AlternateAPI
    /// Signs the media access tokens (HS256; nobody verifies them here).
    let mediaSecret: [UInt8]

    /// The backend's names for end reasons and states (reference → node).
    static let reasons: [String: String] = [
        "callerCancelled": "cancel", "remoteEnded": "hangup", "declined": "decline", "unanswered": "timeout",
        "localHangup": "local-hangup", "busy": "busy", "failed": "failed", "answeredElsewhere": "answered-elsewhere",
        "declinedElsewhere": "declined-elsewhere",
    ]
    static let states: [String: String] = ["ringing": "RINGING", "accepted": "ACTIVE", "ended": "ENDED"]

    public init(service: CallService) {
        alternate = AlternateAPI(service: service)
        mediaSecret = Array(RandomIdentifier.hex(bytes: 32).utf8)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        let isCall = parts.count >= 4 && parts[0] == "api" && parts[1] == "v2" && parts[2] == "calls"
        let method = request.method.uppercased()
        do {
            switch parts.count {
            case 2 where parts == ["api", "push-registrations"] && method == "PUT":
                var body = try json(request)
                if body["platform"]?.stringValue == "voip" { body = body.setting("platform", to: "apnsVoip") }
                return shaped(await forward(request, body: body))
            case 3 where parts[0] == "api" && parts[1] == "push-registrations":
                let kind = parts[2] == "voip" ? "apnsVoip" : parts[2] == "apnsVoip" ? "none" : parts[2]
                return shaped(await forward(request, path: "/api/push-registrations/" + kind))
            case 3 where parts == ["api", "v2", "calls"] && method == "POST":
                return await create(request)
            case 5 where isCall && parts[4] == "hangup":
                var body = try json(request).setting("requestId", to: .string(RandomIdentifier.uuid()))
                if let r = body["reason"]?.stringValue, let canonical = Self.reasons.first(where: { $0.value == r }) {
                    body = body.setting("reason", to: .string(canonical.key))
                }
                return shaped(await forward(request, body: body))
            case 5 where isCall && parts[4] == "media-token":
                let body = try json(request).setting("requestId", to: .string(RandomIdentifier.uuid()))
                return mediaToken(await forward(request, body: body))
            case 2 where parts == ["api", "events"]:
                return shaped(await alternate.handle(request))
            default:
                return shaped(await alternate.handle(request))
            }
        } catch {
            return error.result.response
        }
    }

    // MARK: Requests

    private func json(_ request: HTTPRequest) throws(APIError) -> JSONValue {
        if request.body.isEmpty { return .object([]) }
        guard let body = try? JSONValue.parse(request.body), body.objectValue != nil else {
            throw .badRequest("the body must be a JSON object")
        }
        return body
    }

    /// `request` passed to the alternate API with another body or path.
    private func forward(_ request: HTTPRequest, body: JSONValue? = nil, path: String? = nil) async -> HTTPResponse {
        let query = request.target.firstIndex(of: "?").map { String(request.target[$0...]) } ?? ""
        var headers = request.headers
        if body != nil { headers.set("content-type", "application/json") }
        let inner = HTTPRequest(
            method: request.method, target: path.map { $0 + query } ?? request.target, authority: request.authority,
            headers: headers, body: body.map { Array($0.serialized().utf8) } ?? request.body,
            version: request.version, connection: request.connection, streamID: request.streamID,
            arrivalMs: request.arrivalMs)
        return await alternate.handle(inner)
    }

    /// The caller's device is required; a callee without a registered device gets 404.
    private func create(_ request: HTTPRequest) async -> HTTPResponse {
        let result = await alternate.reference.authenticated(request, allowed: ["POST"]) { _ in
            guard request.headers["x-device-id"] != nil else {
                throw APIError.badRequest("the X-Device-Id header is required: it names the caller's device")
            }
            let body = try json(request)
            let callee = try RequestBody(body).string("to")
            let devices = alternate.service.run { tx, _ in
                APIResult(status: try tx.registrations(ofUser: callee).isEmpty ? 404 : 200, body: [])
            }
            guard devices.status == 200 else {
                throw APIError(404, "no_device", "the callee has no registered device")
            }
            let inner = body.setting("requestId", to: .string(RandomIdentifier.uuid()))
            let out = await forward(request, body: .object((inner.objectValue ?? []).filter { $0.key != "video" }))
            return APIResult(status: out.status, body: out.body)
        }
        return shaped(result.response)
    }

    // MARK: Responses

    /// The alternate API's answer with revisions and cursors as numbers and states and reasons renamed.
    private func shaped(_ response: HTTPResponse) -> HTTPResponse {
        guard !response.body.isEmpty, let json = try? JSONValue.parse(response.body) else { return response }
        return .json(response.status, Self.rename(json, member: nil).serialized())
    }

    static func rename(_ json: JSONValue, member: String?) -> JSONValue {
        switch json {
        case .object(let members): return .object(members.map { ($0.key, rename($0.value, member: $0.key)) })
        case .array(let items): return .array(items.map { rename($0, member: member) })
        case .string(let s):
            switch member {
            case "revision", "cursor": return Int64(s) != nil ? .number(s) : json
            case "state": return .string(states[s] ?? s)
            case "reason", "endReason": return .string(reasons[s] ?? s)
            default: return json
            }
        default: return json
        }
    }

    /// A granted media token as `{"accessToken": JWT}` (expiry in `exp`); a refusal as the alternate's.
    private func mediaToken(_ response: HTTPResponse) -> HTTPResponse {
        guard response.status == 200, let json = try? JSONValue.parse(response.body), let media = json["media"]
        else { return shaped(response) }
        let expiresAtMs = media["expiresAtMs"]?.int64Value ?? 0
        var claims: JSONValue = [
            "sub": media["userId"] ?? .null, "room": media["callId"] ?? .null,
            "exp": .int((expiresAtMs + 999) / 1000), "jti": media["credential"] ?? .null,
        ]
        if let device = media["installationId"] { claims = claims.setting("device", to: device) }
        let token = JWT.sign(header: [:], claims: claims, hmacSecret: mediaSecret)
        return .json(200, JSONValue.object([("accessToken", .string(token))]).serialized())
    }
}
