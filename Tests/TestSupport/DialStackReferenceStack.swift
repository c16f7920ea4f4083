import Foundation
import HTTP
import JSON
import PushMocks
import ReferenceBackend

/// The mocks on real sockets and the wake-up reference backend wired to them (as
/// `ringcheck serve-reference --profile dialstack` runs it): the app registers tokens through `api`,
/// DialStack is played by `postWebhook`.
public final class DialStackReferenceStack: Sendable {
    public let mocks: MockStack
    public let server: DialStackServer
    public let api: ReferenceAPIClient
    /// The webhook secret both sides know.
    public let secret: String

    /// Starts mocks and backend with `defects`; `slowPushDelayMs` and `slowAnswerDelayMs` shorten the `slow-push` and
    /// `slow-answer` defects' waits.
    public static func start(
        defects: Set<DialStackDefect> = [], slowPushDelayMs: Int64 = 20_000, slowAnswerDelayMs: Int64 = 16_000,
        logFile: String? = nil,
        retryPolicy: PushRetryPolicy = PushRetryPolicy(initialBackoffMs: 200, maxBackoffMs: 1_000),
        callIdKey: String = "call_id"
    ) async throws -> DialStackReferenceStack {
        let mocks = try await MockStack.start(.forTests)
        do {
            let secret = "whsec_" + UUID().uuidString.lowercased()
            let settings = try PushProviderSettings(environment: mocks.settings.environmentDictionary)
            let server = try DialStackServer(
                options: .init(
                    configuration: DialStackConfiguration(
                        webhookSecret: secret, slowPushDelayMs: slowPushDelayMs,
                        slowAnswerDelayMs: slowAnswerDelayMs, defects: defects, callIdKey: callIdKey),
                    retryPolicy: retryPolicy, logFile: logFile),
                providers: settings)
            try server.start()
            return DialStackReferenceStack(
                mocks: mocks, server: server, api: try ReferenceAPIClient(baseURL: server.baseURL), secret: secret)
        } catch {
            await mocks.stop()
            throw error
        }
    }

    private init(mocks: MockStack, server: DialStackServer, api: ReferenceAPIClient, secret: String) {
        self.mocks = mocks
        self.server = server
        self.api = api
        self.secret = secret
    }

    public func stop() async {
        await server.stop()
        api.client.shutdown()
        await mocks.stop()
    }

    /// The app ID (bundle ID) the APNs mock expects.
    public var appId: String { mocks.providers.credentials.bundleID }

    // MARK: Playing DialStack

    /// An event as DialStack sends it, compact, with the seed's example values and `callId`.
    public static func event(
        type: String = "call.mobile_push_wakeup", id: String = "evt_" + UUID().uuidString.lowercased(),
        callId: String, userId: String = "user-b", fromName: String? = "John Smith"
    ) -> JSONValue {
        var data: [(key: String, value: JSONValue)] = [
            ("call_id", .string(callId)), ("user_id", .string(userId)), ("from_number", "+14155551234"),
        ]
        if let fromName { data.append(("from_name", .string(fromName))) }
        data.append(("to_number", "+14155559876"))
        data.append(("ringing_at", "2026-04-10T14:30:00Z"))
        return [
            "id": .string(id), "type": .string(type), "created_at": "2026-04-10T14:30:00Z",
            "account_id": "acct_01h2xcejqtf2nbrexx3vqjhp41", "data": .object(data),
        ]
    }

    /// The signature header for `body` signed now (or `offsetSeconds` from now) with the shared secret.
    public func signature(_ body: [UInt8], offsetSeconds: Int64 = 0) -> String {
        WebhookSignature.header(
            secret: secret, timestamp: Int64(Date().timeIntervalSince1970) + offsetSeconds, body: body)
    }

    /// Posts `body` to the webhook with these signature headers (none when empty); returns the status.
    @discardableResult
    public func postWebhook(_ body: [UInt8], signatures: [String]) async throws -> Int {
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        for value in signatures { headers.add(WebhookSignature.headerName, value) }
        let response = try await api.client.send(
            ClientRequest(method: "POST", url: server.webhookURL, headers: headers, body: body))
        return response.status
    }

    /// Posts `body` signed correctly now.
    @discardableResult
    public func postSigned(_ body: [UInt8]) async throws -> Int {
        try await postWebhook(body, signatures: [signature(body)])
    }

    // MARK: Captured pushes

    /// APNs and FCM pushes captured for `callId`, oldest first.
    public func pushes(callId: String) -> [Capture] {
        mocks.log.captures { $0.wakeUpCallId == callId }
    }

    /// Every APNs and FCM push captured, oldest first.
    public var allPushes: [Capture] { mocks.log.captures { $0.mock != .oauth } }

    /// Waits until `count` pushes for `callId` were captured; returns what was found.
    public func waitForPushes(callId: String, count: Int, timeout: Duration = pushWaitLimit) async -> [Capture] {
        await mocks.log.waitFor(count: count, matching: { $0.wakeUpCallId == callId }, timeout: timeout)
    }
}

extension Capture {
    /// The `call_id` of a wake-up push: APNs body `call_id`, FCM `data.call_id`.
    public var wakeUpCallId: String? {
        switch mock {
        case .apns: return json?["call_id"]?.stringValue
        case .fcm: return fcm?.data["call_id"] ?? json?.value(atPath: "message.data.call_id")?.stringValue
        default: return nil
        }
    }
}
