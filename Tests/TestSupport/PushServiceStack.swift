import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend

/// The mocks on real sockets and the reference push service wired to them (as `ringcheck
/// serve-reference --profile push-service` runs it): devices register through `registerDevice`, the
/// app server is played by `notify` and `notification`.
public final class PushServiceStack: Sendable {
    public let mocks: MockStack
    public let server: PushServiceServer
    public let client: HTTPClient

    /// Starts mocks and service with `defects`, serving `apiShape`.
    public static func start(
        defects: Set<PushServiceDefect> = [], apiShape: PushServiceAPIShape = .reference, logFile: String? = nil,
        database: Database.Location = .inMemory,
        retryPolicy: PushRetryPolicy = PushRetryPolicy(maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 500)
    ) async throws -> PushServiceStack {
        let mocks = try await MockStack.start(.forTests)
        do {
            let settings = try PushProviderSettings(environment: mocks.settings.environmentDictionary)
            var configuration = PushServiceConfiguration.generated(
                bundleID: mocks.providers.credentials.bundleID, defects: defects)
            configuration.apiShape = apiShape
            let server = try PushServiceServer(
                options: .init(
                    configuration: configuration,
                    database: database, retryPolicy: retryPolicy, logFile: logFile),
                providers: settings)
            try server.start()
            return PushServiceStack(mocks: mocks, server: server, client: try HTTPClient())
        } catch {
            await mocks.stop()
            throw error
        }
    }

    private init(mocks: MockStack, server: PushServiceServer, client: HTTPClient) {
        self.mocks = mocks
        self.server = server
        self.client = client
    }

    public func stop() async {
        await server.stop()
        client.shutdown()
        await mocks.stop()
    }

    public var appId: String { server.options.configuration.appId }
    public var apiKey: String { server.options.configuration.apiKey }
    /// The bundle ID the APNs mock expects.
    public var bundleID: String { mocks.providers.credentials.bundleID }

    // MARK: Playing the devices and the app server

    /// Sends a request to the service; `authorization` nil sends none.
    public func send(_ method: String, _ path: String, body: [UInt8] = [], authorization: String? = nil)
        async throws -> APIReply
    {
        var headers = HTTPHeaders()
        if !body.isEmpty { headers.add("content-type", "application/json") }
        if let authorization { headers.add("authorization", authorization) }
        let response = try await client.send(
            ClientRequest(method: method, url: server.baseURL + path, headers: headers, body: body))
        return APIReply(status: response.status, body: response.body)
    }

    /// Registers a device of `externalId`; returns the reply (`id` on success).
    @discardableResult
    public func registerDevice(
        _ externalId: String, platform: String, token: String, voipToken: String? = nil, sandbox: Bool? = nil
    ) async throws -> APIReply {
        var body: [(key: String, value: JSONValue)] = [
            ("external_id", .string(externalId)), ("platform", .string(platform)), ("token", .string(token)),
        ]
        if let voipToken { body.append(("voipToken", .string(voipToken))) }
        if let sandbox { body.append(("sandbox", .bool(sandbox))) }
        return try await send("POST", "/api/v1/apps/\(appId)/devices", body: JSONValue.object(body).bytes())
    }

    /// `POST /notifications` with `body` (its `app_id` set to the app's unless given) and `Key <key>`.
    public func notify(_ body: JSONValue, authorization: String? = nil) async throws -> APIReply {
        var body = body
        if body["app_id"] == nil { body = body.setting("app_id", to: .string(appId)) }
        return try await send(
            "POST", "/notifications", body: body.bytes(), authorization: authorization ?? "Key \(apiKey)")
    }

    /// `GET /notifications/{id}?app_id=`.
    public func notification(_ id: String) async throws -> APIReply {
        try await send("GET", "/notifications/\(id)?app_id=\(appId)", authorization: "Key \(apiKey)")
    }

    /// The notification's counts once nothing remains (after the queue settled).
    public func settledNotification(_ id: String) async throws -> APIReply {
        await server.waitUntilDeliveriesSettle()
        return try await notification(id)
    }

    /// A call body for `externalIds`.
    public static func call(
        _ externalIds: [String], action: String = "incoming", id: String = "", isVideo: Bool = false,
        timeout: Int? = 45, data: JSONValue? = ["room": "abc"], headings: String? = nil, contents: String? = nil
    ) -> JSONValue {
        var call: [(key: String, value: JSONValue)] = [
            ("action", .string(action)), ("id", .string(id)), ("caller_name", "Nguyễn Văn A"),
            ("handle", "0901234567"), ("avatar", "https://example.com/a.jpg"), ("is_video", .bool(isVideo)),
        ]
        if let timeout { call.append(("timeout", .int(timeout))) }
        var body: [(key: String, value: JSONValue)] = [
            ("include_aliases", ["external_id": .array(externalIds.map { .string($0) })]), ("call", .object(call)),
        ]
        if let data { body.append(("data", data)) }
        if let headings { body.append(("headings", ["en": .string(headings)])) }
        if let contents { body.append(("contents", ["en": .string(contents)])) }
        return .object(body)
    }

    // MARK: Captured pushes

    /// Every APNs and FCM push captured, oldest first.
    public var pushes: [Capture] { mocks.log.captures { $0.mock == .apns || $0.mock == .fcm } }

    /// Waits until `count` pushes were captured in all; returns them.
    public func waitForPushes(_ count: Int, timeout: Duration = pushWaitLimit) async -> [Capture] {
        await mocks.log.waitFor(count: count, matching: { $0.mock == .apns || $0.mock == .fcm }, timeout: timeout)
    }
}

extension Capture {
    /// A call push's string members: the APNs body's top level (but `aps`) or the FCM `data`.
    public var callMembers: [String: JSONValue] {
        switch mock {
        case .apns:
            return Dictionary((json?.objectValue ?? []).filter { $0.key != "aps" }.map { ($0.key, $0.value) }) { a, _ in
                a
            }
        default:
            let data = json?.value(atPath: "message.data")?.objectValue ?? []
            return Dictionary(data.map { ($0.key, $0.value) }) { a, _ in a }
        }
    }
}
