import Foundation
import HTTP
import JSON
import ReferenceBackend
import TestSupport
import Testing

/// The reference backend serving the alternate API shape in-process on an ephemeral port, played
/// over real HTTP/1.1: `Authorization: Bearer token-<user>`, the device in `X-Device-Id`.
struct AlternateAPIHarness {
    let server: ReferenceBackendServer
    let client: HTTPClient
    let transport: FakeTransport

    static func start(defects: Set<CallxDefect> = []) throws -> AlternateAPIHarness {
        let transport = FakeTransport()
        let server = try ReferenceBackendServer(
            options: .init(configuration: ReferenceBackendConfiguration(defects: defects, apiShape: .alternate)),
            transport: transport, messageSettings: PushMessageSettings(fcmProjectID: "alt-test"))
        try server.start()
        let client = try HTTPClient(configuration: .init(timeoutSeconds: 20, httpVersion: .http1_1))
        return AlternateAPIHarness(server: server, client: client, transport: transport)
    }

    /// Runs `body` against a fresh backend and stops it afterwards, also when `body` throws.
    static func run(defects: Set<CallxDefect> = [], _ body: (AlternateAPIHarness) async throws -> Void) async throws {
        let api = try start(defects: defects)
        do { try await body(api) } catch {
            await api.stop()
            throw error
        }
        await api.stop()
    }

    func stop() async {
        client.shutdown()
        await server.stop()
    }

    // MARK: Requests

    /// The request as it goes on the wire; `rawBody` sends bytes that need not be JSON.
    func request(
        _ method: String, _ path: String, as user: String? = nil, device: String? = nil, body: JSONValue? = nil,
        rawBody: String? = nil
    ) -> ClientRequest {
        var headers = HTTPHeaders()
        if let user { headers.add("authorization", "Bearer token-\(user)") }
        if let device { headers.add("x-device-id", device) }
        let bytes = rawBody.map { Array($0.utf8) } ?? body?.bytes() ?? []
        if !bytes.isEmpty { headers.add("content-type", "application/json") }
        return ClientRequest(method: method, url: server.baseURL + path, headers: headers, body: bytes)
    }

    func send(
        _ method: String, _ path: String, as user: String? = nil, device: String? = nil, body: JSONValue? = nil,
        rawBody: String? = nil
    ) async throws -> APIReply {
        let response = try await client.send(
            request(method, path, as: user, device: device, body: body, rawBody: rawBody))
        return APIReply(status: response.status, body: response.body)
    }

    // MARK: Steps

    @discardableResult
    func register(_ user: String, device: String, platform: String = "apnsVoip") async throws -> APIReply {
        var body: JSONValue = [
            "platform": .string(platform), "token": .string("tok-\(device)-\(platform)"),
            "appId": "com.example.calls",
        ]
        if platform == "apnsVoip" { body = body.setting("apnsEnvironment", to: "sandbox") }
        return try await send("PUT", "/api/push-registrations", as: user, device: device, body: body)
    }

    func createBody(_ callId: String, to callee: String = "user-b", requestId: String? = nil) -> JSONValue {
        ["id": .string(callId), "to": .string(callee), "requestId": .string(requestId ?? "create-\(callId)")]
    }

    @discardableResult
    func create(_ callId: String = newCallId(), as user: String = "user-a", to callee: String = "user-b")
        async throws -> APIReply
    {
        try await send("POST", "/api/v2/calls", as: user, body: createBody(callId, to: callee))
    }

    func mediaTokenRequest(_ callId: String, as user: String = "user-b", device: String?, requestId: String)
        -> ClientRequest
    {
        request(
            "POST", "/api/v2/calls/\(callId)/media-token", as: user, device: device,
            body: ["requestId": .string(requestId)])
    }

    func mediaToken(_ callId: String, as user: String = "user-b", device: String?, requestId: String? = nil)
        async throws -> APIReply
    {
        let response = try await client.send(
            mediaTokenRequest(
                callId, as: user, device: device, requestId: requestId ?? "media-\(device ?? user)-\(callId)"))
        return APIReply(status: response.status, body: response.body)
    }

    func hangup(
        _ callId: String, as user: String, device: String? = nil, reason: String, requestId: String? = nil
    ) async throws -> APIReply {
        try await send(
            "POST", "/api/v2/calls/\(callId)/hangup", as: user, device: device,
            body: ["requestId": .string(requestId ?? "hangup-\(user)-\(callId)"), "reason": .string(reason)])
    }

    func events(_ user: String, device: String?, after: String? = nil, max: String? = nil) async throws -> APIReply {
        var query: [String] = []
        if let after { query.append("after=\(after)") }
        if let max { query.append("max=\(max)") }
        return try await send(
            "GET", "/api/events" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), as: user,
            device: device)
    }
}

func newCallId() -> String { UUID().uuidString.lowercased() }

extension APIReply {
    /// The top-level member names, in order.
    var keys: [String] { json.objectValue?.map(\.key) ?? [] }

    /// True when the body is exactly the error shape `{"error": {"code", "message"}}` with `code`.
    func isError(_ status: Int, _ code: String) -> Bool {
        self.status == status && keys == ["error"] && errorCode == code
            && json["error"]?.objectValue?.map(\.key) == ["code", "message"]
            && json.value(atPath: "error.message")?.stringValue?.isEmpty == false
    }
}
