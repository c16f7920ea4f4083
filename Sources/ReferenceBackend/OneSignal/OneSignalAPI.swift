import HTTP
import JSON

/// The kit server's HTTP API, the seed's three helpers as routes:
///
/// - `POST /push/user {"userId", "title", "body", "data", "options"}` → `sendPushToUser`
/// - `POST /push/broadcast {"title", "body", "data", "options"}` → `sendPushBroadcast`
/// - `POST /push/voip {"userId", "data", "options"}` → `sendVoipPushToUser`
///
/// `options` is the seed's `PushOptions` (`priority`, `ttl`, `contentAvailable`, `apnsPushTypeOverride`,
/// `collapseId`). Each answers 200 `{"delivered": bool}`; a malformed body gets 400 `{"error": {"code", "message"}}`.
public struct OneSignalAPI: HTTPHandler {
    public static let routes: [String: OneSignalPush.Kind] = [
        "/push/user": .user, "/push/broadcast": .broadcast, "/push/voip": .voip,
    ]

    public let sender: OneSignalSender

    public init(sender: OneSignalSender) { self.sender = sender }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        guard let kind = Self.routes[request.path] else {
            return APIError(404, "not_found", "no route \(request.method) \(request.path)").result.response
        }
        guard request.method.uppercased() == "POST" else {
            return HTTPResponse(status: 405, headers: ["allow": "POST"], body: Array("use POST\n".utf8))
        }
        let push: OneSignalPush
        do { push = try Self.push(kind, from: try jsonObjectBody(request)) } catch {
            return error.result.response
        }
        let result = await sender.send(push)
        return APIResult(status: 200, json: ["delivered": .bool(result.delivered)]).response
    }

    /// Reads a request body as the helper's arguments.
    static func push(_ kind: OneSignalPush.Kind, from body: JSONValue) throws(APIError) -> OneSignalPush {
        func string(_ key: String, required: Bool) throws(APIError) -> String? {
            guard let value = body[key], !value.isNull else {
                if required { throw .badRequest("'\(key)' is required") }
                return nil
            }
            guard let text = value.stringValue, !(required && text.isEmpty) else {
                throw .badRequest("'\(key)' must be a non-empty string")
            }
            return text
        }
        let userId = kind == .broadcast ? nil : try string("userId", required: true)
        let title = kind == .voip ? nil : try string("title", required: true)
        let text = kind == .voip ? nil : try string("body", required: true)
        var data: JSONValue?
        if let value = body["data"], !value.isNull {
            guard case .object = value else { throw .badRequest("'data' must be an object") }
            data = value
        }
        return OneSignalPush(
            kind: kind, userId: userId, title: title, body: text, data: data, options: try options(body["options"]))
    }

    static func options(_ value: JSONValue?) throws(APIError) -> OneSignalPushOptions {
        guard let value, !value.isNull else { return OneSignalPushOptions() }
        guard case .object = value else { throw .badRequest("'options' must be an object") }
        var options = OneSignalPushOptions()
        func int(_ key: String) throws(APIError) -> Int? {
            guard let v = value[key], !v.isNull else { return nil }
            guard v.isIntegerLiteral, let n = v.intValue else {
                throw .badRequest("'options.\(key)' must be an integer")
            }
            return n
        }
        options.priority = try int("priority")
        options.ttl = try int("ttl")
        if let v = value["contentAvailable"], !v.isNull {
            guard let b = v.boolValue else { throw .badRequest("'options.contentAvailable' must be a boolean") }
            options.contentAvailable = b
        }
        for key in ["apnsPushTypeOverride", "collapseId"] {
            guard let v = value[key], !v.isNull else { continue }
            guard let s = v.stringValue else { throw .badRequest("'options.\(key)' must be a string") }
            if key == "collapseId" { options.collapseId = s } else { options.apnsPushTypeOverride = s }
        }
        if let type = options.apnsPushTypeOverride, !OneSignalPushOptions.pushTypes.contains(type) {
            throw .badRequest("'options.apnsPushTypeOverride' must be alert, background or voip")
        }
        return options
    }
}
