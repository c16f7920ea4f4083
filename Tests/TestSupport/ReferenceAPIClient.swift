import Foundation
import HTTP
import JSON

/// A parsed answer from a Callx backend.
public struct APIReply: Sendable {
    public var status: Int
    public var json: JSONValue

    public init(status: Int, body: [UInt8]) {
        self.status = status
        json = body.isEmpty ? .null : ((try? JSONValue.parse(body)) ?? .null)
    }

    public subscript(path: String) -> JSONValue? { json.value(atPath: path) }
    public var errorCode: String? { json.value(atPath: "error.code")?.stringValue }
}

/// Plays users and their devices against a Callx backend over real HTTP (the reference API's
/// routes, `Authorization: Bearer token-<user>`).
public struct ReferenceAPIClient: Sendable {
    public let baseURL: String
    public let client: HTTPClient

    public init(baseURL: String, client: HTTPClient? = nil) throws {
        self.baseURL = baseURL
        self.client = try client ?? HTTPClient(configuration: .init(timeoutSeconds: 20, httpVersion: .http1_1))
    }

    /// A 64-hex-digit APNs device token derived from `seed`.
    public static func apnsToken(_ seed: String) -> String {
        var hex = ""
        for byte in seed.utf8 { hex += String(byte, radix: 16) }
        while hex.count < 64 { hex += "0" }
        return String(hex.prefix(64))
    }

    /// The request as it goes on the wire (for races).
    public func request(_ method: String, _ path: String, as user: String?, body: JSONValue? = nil) -> ClientRequest {
        var headers = HTTPHeaders()
        if let user { headers.add("authorization", "Bearer token-\(user)") }
        if body != nil { headers.add("content-type", "application/json") }
        return ClientRequest(method: method, url: baseURL + path, headers: headers, body: body?.bytes() ?? [])
    }

    public func send(_ method: String, _ path: String, as user: String?, body: JSONValue? = nil) async throws
        -> APIReply
    {
        let response = try await client.send(request(method, path, as: user, body: body))
        return APIReply(status: response.status, body: response.body)
    }

    // MARK: Steps

    @discardableResult
    public func registerAPNs(
        _ user: String, installation: String, token: String, environment: String, appId: String
    ) async throws -> APIReply {
        try await send(
            "PUT", "/v1/installations/\(installation)/push-tokens/apnsVoip", as: user,
            body: ["token": .string(token), "appId": .string(appId), "apnsEnvironment": .string(environment)])
    }

    @discardableResult
    public func registerFCM(_ user: String, installation: String, token: String, appId: String) async throws
        -> APIReply
    {
        try await send(
            "PUT", "/v1/installations/\(installation)/push-tokens/fcm", as: user,
            body: ["token": .string(token), "appId": .string(appId)])
    }

    @discardableResult
    public func create(
        _ callId: String = UUID().uuidString.lowercased(), as user: String = "user-a", callee: String = "user-b",
        operationId: String? = nil
    ) async throws -> APIReply {
        try await send(
            "POST", "/v1/calls", as: user, body: createBody(callId, callee: callee, operationId: operationId))
    }

    public func createBody(_ callId: String, callee: String = "user-b", operationId: String? = nil) -> JSONValue {
        [
            "callId": .string(callId), "calleeUserId": .string(callee),
            "operationId": .string(operationId ?? "op-create-\(callId)"),
        ]
    }

    public func answerRequest(_ callId: String, as user: String = "user-b", installation: String) -> ClientRequest {
        request(
            "POST", "/v1/calls/\(callId)/answer", as: user,
            body: [
                "operationId": .string("op-answer-\(installation)-\(callId)"), "installationId": .string(installation),
            ])
    }

    @discardableResult
    public func answer(_ callId: String, as user: String = "user-b", installation: String) async throws -> APIReply {
        let response = try await client.send(answerRequest(callId, as: user, installation: installation))
        return APIReply(status: response.status, body: response.body)
    }

    @discardableResult
    public func end(_ callId: String, as user: String, reason: String) async throws -> APIReply {
        try await send(
            "POST", "/v1/calls/\(callId)/end", as: user,
            body: ["operationId": .string("op-end-\(user)-\(callId)"), "reason": .string(reason)])
    }

    public func get(_ callId: String, as user: String) async throws -> APIReply {
        try await send("GET", "/v1/calls/\(callId)", as: user)
    }

    /// One page of an installation's event feed.
    public func events(_ user: String, installation: String, cursor: String? = nil) async throws -> APIReply {
        var path = "/v1/call-events?installationId=\(installation)"
        if let cursor { path += "&cursor=\(cursor)" }
        return try await send("GET", path, as: user)
    }

    /// Every event the installation can read now, following the cursor from the start.
    public func allEvents(_ user: String, installation: String) async throws -> [JSONValue] {
        var cursor: String?
        var all: [JSONValue] = []
        while true {
            let page = try await events(user, installation: installation, cursor: cursor)
            let items = page["events"]?.arrayValue ?? []
            all += items
            cursor = page["nextCursor"]?.stringValue
            if items.isEmpty { return all }
        }
    }
}
