import HTTP
import JSON

/// One push, ready to send: which provider host, and the HTTP request without authorization
/// (the transport adds the APNs provider token or the Google OAuth token).
public struct PushRequest: Sendable, Equatable {
    /// Where the request goes.
    public enum Destination: Sendable, Equatable {
        /// APNs production or sandbox, chosen by the registration.
        case apns(APNsEnvironment)
        /// FCM HTTP v1.
        case fcm
    }

    public var destination: Destination
    public var method: String
    /// `/3/device/<token>` or `/v1/projects/<project>/messages:send`.
    public var path: String
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The outbox job this request sends.
    public var jobId: Int64

    /// The body as JSON (tests and diagnostics).
    public var json: JSONValue? { try? JSONValue.parse(body) }
}

/// Sends push requests to APNs or FCM. The real one speaks HTTP/2 to the providers; tests use fakes.
public protocol PushTransport: Sendable {
    /// Sends one request and returns the provider's response; throws when no response came
    /// (connection refused, reset, timeout), which the worker treats as retryable.
    func send(_ request: PushRequest) async throws -> HTTPResponse
}

/// How the worker builds requests: the FCM project, and the APNs topic when it differs from
/// the registration's app ID.
public struct PushMessageSettings: Sendable {
    public var fcmProjectID: String
    /// The bundle ID whose `.voip` topic VoIP pushes use; nil uses each registration's appId.
    public var apnsBundleID: String?
    /// The topic of VoIP pushes when set (`RINGCHECK_APNS_VOIP_TOPIC`); nil appends `.voip` to the bundle ID.
    public var apnsVoIPTopic: String?

    public init(fcmProjectID: String, apnsBundleID: String? = nil, apnsVoIPTopic: String? = nil) {
        self.fcmProjectID = fcmProjectID
        self.apnsBundleID = apnsBundleID
        self.apnsVoIPTopic = apnsVoIPTopic
    }

    /// The headers of a VoIP push for an app registered as `appId`: push type voip, the VoIP topic,
    /// priority 10, and `apns-expiration` (unix seconds, or `0`: deliver now or never).
    func voipHeaders(appId: String, expiration: String) -> HTTPHeaders {
        [
            "apns-push-type": "voip",
            "apns-topic": apnsVoIPTopic ?? (apnsBundleID ?? appId) + ".voip",
            "apns-priority": "10",
            "apns-expiration": expiration,
            "content-type": "application/json",
        ]
    }
}

/// Builds the provider request for an outbox job at the moment of sending.
public struct PushMessageBuilder: Sendable {
    public var settings: PushMessageSettings
    public var defects: Set<CallxDefect>

    public init(settings: PushMessageSettings, defects: Set<CallxDefect> = []) {
        self.settings = settings
        self.defects = defects
    }

    /// The request for `job` sent at `nowMs`, or nil when it must not be sent any more (its
    /// validity ended; an FCM ttl would be zero).
    public func request(for job: PushJob, nowMs: Int64) -> PushRequest? {
        let secondsLeft = (job.validUntilMs - nowMs + 999) / 1000  // whole seconds, rounded up: never 0 while valid
        guard nowMs < job.validUntilMs || defects.contains(.retryAfterExpiry) else { return nil }
        var callx = job.payload
        if job.purpose == .invitation { callx = callx.setting("issuedAtMs", to: .int(nowMs)) }
        switch job.kind {
        case .apnsVoip:
            return apnsRequest(job: job, callx: callx, nowMs: nowMs)
        case .fcm:
            return fcmRequest(job: job, callx: callx, secondsLeft: max(secondsLeft, 1))
        }
    }

    private func apnsRequest(job: PushJob, callx: JSONValue, nowMs: Int64) -> PushRequest {
        let expiration = defects.contains(.apnsExpiration30) ? String(nowMs / 1000 + 30) : "0"
        let headers = settings.voipHeaders(appId: job.appId, expiration: expiration)
        let body: JSONValue = ["aps": .object([]), "callx": callx]
        return PushRequest(
            destination: .apns(job.apnsEnvironment ?? .production), method: "POST", path: "/3/device/\(job.token)",
            headers: headers, body: body.bytes(), jobId: job.jobId)
    }

    private func fcmRequest(job: PushJob, callx: JSONValue, secondsLeft: Int64) -> PushRequest {
        let invitation = job.purpose == .invitation
        var ttl = secondsLeft
        if invitation && defects.contains(.fixedTTL30s) { ttl = 30 }
        if invitation && defects.contains(.zeroTTL) { ttl = 0 }
        var message: [(key: String, value: JSONValue)] = [
            ("token", .string(job.token)),
            ("android", ["priority": invitation ? "HIGH" : "NORMAL", "ttl": .string("\(ttl)s")]),
            ("data", ["callx": .string(callx.serialized())]),
        ]
        if invitation && defects.contains(.notificationBlock) {
            let title = callx["displayName"]?.stringValue ?? "Incoming call"
            message.append(("notification", ["title": .string(title), "body": "Incoming call"]))
        }
        let body: JSONValue = ["message": .object(message)]
        return PushRequest(
            destination: .fcm, method: "POST", path: "/v1/projects/\(settings.fcmProjectID)/messages:send",
            headers: ["content-type": "application/json"], body: body.bytes(), jobId: job.jobId)
    }
}
