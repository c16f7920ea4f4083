import HTTP
import JSON
import Signing

/// The wake-up reference backend's HTTP API:
///
/// - `PUT|DELETE /v1/installations/{id}/push-tokens/{apnsVoip|fcm}` with `Authorization: Bearer
///   <token>`: the app's token registration, shaped like the Callx reference's (body `{"token",
///   "appId", "apnsEnvironment"}`).
///   With a DialStack API configured, a registration first enables the user's `mobile_push_wakeup` there
///   (`WakeUpHoldSwitch`); a refusal or no answer fails it with 502 and keeps no token.
/// - `POST /webhooks/dialstack` (`DialStackConfiguration.webhookPath`): DialStack's signed events. A bad
///   signature → 401 `Invalid signature` and no push; otherwise 200 `OK`, and a
///   `call.mobile_push_wakeup` with `data.user_id` seen for the first time (by its `id`, or by its
///   content when it has none) wakes every registered device of that user.
public struct DialStackAPI: HTTPHandler {
    public let configuration: DialStackConfiguration
    public let users: UserDirectory
    public let tokens: DialStackTokenStore
    public let events: WebhookEventLog
    public let sender: DialStackPushSender
    /// Turns Wake-Up Hold on for a user who registers a token; nil when no DialStack API is configured.
    public let wakeUpHold: WakeUpHoldSwitch?
    let clock: MillisecondClock
    let log: BackendLog?

    init(
        configuration: DialStackConfiguration, users: UserDirectory, tokens: DialStackTokenStore,
        sender: DialStackPushSender, wakeUpHold: WakeUpHoldSwitch?,
        clock: @escaping MillisecondClock, log: BackendLog?
    ) {
        self.wakeUpHold = wakeUpHold
        self.configuration = configuration
        self.users = users
        self.tokens = tokens
        self.events = WebhookEventLog(retentionMs: configuration.eventRetentionSeconds * 1000)
        self.sender = sender
        self.clock = clock
        self.log = log
    }

    private var defects: Set<DialStackDefect> { configuration.defects }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path == configuration.webhookPath {
            guard request.method.uppercased() == "POST" else {
                return HTTPResponse(status: 405, headers: ["allow": "POST"], body: Array("use POST\n".utf8))
            }
            return await receiveWebhook(request)
        }
        return await route(request).response
    }

    // MARK: Token registration

    private func route(_ request: HTTPRequest) async -> APIResult {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            percentDecode(String($0))
        }
        guard parts.count == 5, parts[0] == "v1", parts[1] == "installations", parts[3] == "push-tokens" else {
            return APIError(404, "not_found", "no route \(request.method) \(request.path)").result
        }
        guard let kind = PushKind(rawValue: parts[4]) else {
            return APIError(404, "not_found", "push token kind must be apnsVoip or fcm").result
        }
        let installationId = parts[2]
        return await authenticatedRequest(request, users: users, allowed: ["PUT", "DELETE"]) { user in
            if request.method.uppercased() == "PUT" {
                let registration = try PushRegistration.requested(
                    installationId: installationId, kind: kind, body: try jsonObjectBody(request), userId: user.userId,
                    nowMs: clock())
                // The seed: enable Wake-Up Hold "for users your application can actually reach with push
                // notifications (for example, when they register a device token)".
                try await wakeUpHold?.enable(userId: user.userId)
                tokens.register(registration)
                return APIResult(status: 200, json: registration.json)
            }
            try validateIdentifier(installationId, field: "installationId")
            guard tokens.delete(userId: user.userId, installationId: installationId, kind: kind) else {
                throw APIError(403, "installation_not_yours", "this installation is registered to another user")
            }
            return APIResult(status: 204, body: [])
        }
    }

    // MARK: Webhooks

    /// Verifies, parses, deduplicates and (for a wake-up) starts the pushes; answers at once (with the
    /// `slow-answer` defect: once the pushes are done).
    func receiveWebhook(_ request: HTTPRequest) async -> HTTPResponse {
        let now = clock()
        let verdict = verify(request, nowMs: now)
        guard verdict.isValid else {
            if case .invalid(let why) = verdict { log?.write("webhook refused: \(why)") }
            return .text(401, "Invalid signature")
        }
        guard let json = try? JSONValue.parse(request.body), let event = DialStackWebhookEvent(json: json) else {
            log?.write("webhook refused: the body is not a JSON object")
            return .text(400, "Invalid JSON")
        }
        let name = "webhook \(event.type ?? "(no type)") event \(event.id ?? "-") call \(event.callId ?? "-")"
        if !defects.contains(.ringTwiceOnRedelivery),
            !events.isFirstDelivery(of: Self.deliveryKey(event, json), nowMs: now)
        {
            log?.write("\(name): a redelivery, already handled")
            return .text(200, "OK")
        }
        guard let userId = event.userId, wakes(event) else {
            log?.write("\(name): acknowledged, wakes nobody")
            return .text(200, "OK")
        }
        var devices = defects.contains(.wrongUser) ? tokens.allDevices : tokens.devices(ofUser: userId)
        if defects.contains(.firstDeviceOnly) { devices = Array(devices.prefix(1)) }
        log?.write("\(name): waking \(devices.count) device(s) of user \(userId)")
        let pushes = sender.wake(devices, for: event, receivedAtMs: now)
        if defects.contains(.slowAnswer) { await pushes?.value }
        return .text(200, "OK")
    }

    /// What makes two deliveries one event: its `id`; for an event without one (or with an empty one), its content —
    /// the parsed JSON, however it was formatted. The seed's handler rings on every verified delivery, and DialStack
    /// documents no event without `id`; but one replayed inside the signature's 300 s window (the same signed bytes),
    /// or signed again by a retry, is the same wake-up for the same call and must not ring twice, while a new event
    /// differs at least in `created_at` or `data.ringing_at`. Kept as long as IDs are (`eventRetentionSeconds`).
    static func deliveryKey(_ event: DialStackWebhookEvent, _ json: JSONValue) -> String {
        if let id = event.id, !id.isEmpty { return "id " + id }
        return "content " + RandomIdentifier.hexString(Digest.sha256(Array(json.serialized().utf8)))
    }

    /// Whether an event of this type wakes its user's devices.
    private func wakes(_ event: DialStackWebhookEvent) -> Bool {
        if event.type == DialStackWebhookEvent.wakeUpType { return true }
        return defects.contains(.pushOnRinging) && DialStackWebhookEvent.otherCallTypes.contains(event.type ?? "")
    }

    /// The signature check, as configured (and as the defects break it).
    private func verify(_ request: HTTPRequest, nowMs: Int64) -> WebhookSignature.Verdict {
        if defects.contains(.noSignatureCheck) { return .valid }
        var signed = request.body
        if defects.contains(.verifyParsedBody), let parsed = try? JSONValue.parse(request.body) {
            // The classic mistake: JSON.stringify(req.body) after a JSON body parser.
            signed = parsed.bytes()
        }
        // Several headers of the name read as Node.js gives them to the seed's handler: joined with ", ".
        let headers = request.headers.values(WebhookSignature.headerName)
        return WebhookSignature.verify(
            header: headers.isEmpty ? nil : headers.joined(separator: ", "), body: signed,
            secret: configuration.webhookSecret,
            nowMs: nowMs, toleranceSeconds: configuration.signatureToleranceSeconds,
            checkTimestamp: !defects.contains(.noTimestampCheck))
    }
}
