import HTTP
import JSON
import Signing

/// A mock FCM HTTP v1 API: `POST /v1/projects/{project}/messages:send`, authenticated with access
/// tokens the `OAuthMock` issued, judged like the real API, every request recorded in the `CaptureLog`.
public final class FCMMock: HTTPHandler {
    /// What the mock trusts.
    public let credentials: MockCredentials
    /// The access tokens issued by the OAuth mock.
    public let tokens: AccessTokenStore
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans?
    /// Device tokens known to be unregistered or bound to an environment.
    public let registry: DeviceRegistry?
    /// The time source for token checks and timestamps.
    public let clock: MockClock

    /// A mock judging requests against `credentials`, recording into `log`; `faults` and `registry` are optional.
    public init(
        credentials: MockCredentials, tokens: AccessTokenStore, log: CaptureLog, faults: FaultPlans? = nil,
        registry: DeviceRegistry? = nil, clock: MockClock = .system
    ) {
        self.credentials = credentials
        self.tokens = tokens
        self.log = log
        self.faults = faults
        self.registry = registry
        self.clock = clock
    }

    /// The project of `/v1/projects/{project}/messages:send`, or nil for any other path.
    static func project(inPath path: String) -> String? {
        let prefix = "/v1/projects/"
        let suffix = "/messages:send"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else {
            return nil
        }
        let project = path.dropFirst(prefix.count).dropLast(suffix.count)
        return project.contains("/") ? nil : String(project)
    }

    /// Judges and answers one request, recording it in the capture log.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let now = clock()
        var capture = Capture(request: request, mock: .fcm, arrivalMs: request.arrivalMs > 0 ? request.arrivalMs : now)
        if !request.body.isEmpty && request.body.count <= 1 << 20 { capture.json = try? JSONValue.parse(request.body) }
        let target = FCMMessageValidator.peekTarget(capture.json)
        capture.fcmTarget = target
        if let target, target.addressesOneInstallation {
            // `fid` (firebase-admin 7.x) and `token` both address one installation: captured, filtered and
            // judged alike, by that address.
            capture.deviceToken = target.value
            capture.secrets.append(CaptureSecret(value: target.value, replacement: Redaction.shortToken(target.value)))
        }
        if let bearer = APNsMock.bearerToken(request.headers["authorization"]) {
            capture.secrets.append(CaptureSecret(value: bearer, replacement: "<redacted>"))
        }

        return await FaultedAnswer.answer(
            capture, fault: faults?.next(mock: .fcm, deviceToken: target?.value), log: log,
            injected: { respond, _ in
                let code = respond.errorCode.flatMap(FCMErrorCode.init(rawValue:)) ?? .forStatus(respond.status ?? 500)
                var error = GoogleError(code, respond.message)
                if let status = respond.status { error.httpStatus = status }
                return MockRefusal(response: error.response, reason: error.reason, detail: respond.message)
            },
            judge: { (capture: inout Capture) throws(GoogleError) -> HTTPResponse in
                let info = try validate(request, json: capture.json, nowMs: now, capture: &capture)
                let id = info.validateOnly ? "fake_message_id" : "0:\(now)%\(MockIDs.hex(SecureRandom.bytes(8)))"
                let body: JSONValue = ["name": .string("projects/\(info.project)/messages/\(id)")]
                return HTTPResponse.json(
                    200, body.bytes(), headers: ["content-type": "application/json; charset=UTF-8"])
            },
            refused: { MockRefusal(response: $0.response, reason: $0.reason, detail: $0.message) })
    }

    /// Path, method, credentials, project, body and device state, in the order Google checks them.
    func validate(_ request: HTTPRequest, json: JSONValue?, nowMs: Int64, capture: inout Capture) throws(GoogleError)
        -> FCMMessageInfo
    {
        guard let project = Self.project(inPath: request.path), request.method == "POST" else {
            throw GoogleError(httpStatus: 404, status: "NOT_FOUND", message: "Method not found.")
        }
        guard let raw = request.headers["authorization"], !raw.isEmpty else {
            throw GoogleError(
                httpStatus: 401, status: "UNAUTHENTICATED",
                message: "Request is missing required authentication credential. " + GoogleError.credentialHelp,
                errorInfoReason: "CREDENTIALS_MISSING")
        }
        let invalidCredentials = GoogleError(
            httpStatus: 401, status: "UNAUTHENTICATED",
            message: "Request had invalid authentication credentials. " + GoogleError.credentialHelp,
            errorInfoReason: "ACCESS_TOKEN_TYPE_UNSUPPORTED")
        guard let bearer = APNsMock.bearerToken(raw) else { throw invalidCredentials }
        switch tokens.lookup(bearer, nowMs: nowMs) {
        case .valid(let grant):
            guard OAuthMock.allowsFCM(scope: grant.scope) else {
                // What Google answers a token whose scopes do not include FCM's.
                throw GoogleError(
                    httpStatus: 403, status: "PERMISSION_DENIED",
                    message: "Request had insufficient authentication scopes.",
                    errorInfoReason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT")
            }
        case .unknown: throw invalidCredentials
        case .expired:
            var expired = invalidCredentials
            expired.errorInfoReason = "ACCESS_TOKEN_EXPIRED"
            throw expired
        }
        guard project == credentials.fcmProjectID else {
            throw GoogleError(
                httpStatus: 403, status: "PERMISSION_DENIED",
                message:
                    "Permission 'cloudmessaging.messages.create' denied on resource "
                    + "'//cloudresourcemanager.googleapis.com/projects/\(project)' (or it may not exist).")
        }
        guard let json else {
            throw GoogleError.invalidArgument("Invalid JSON payload received. Unexpected token.", field: "")
        }
        let info = try FCMMessageValidator(project: project).validate(json)
        capture.fcm = info
        if let target = info.target, target.addressesOneInstallation, let device = registry?.device(target.value) {
            switch device.status {
            case .active: break
            case .unregistered, .expired: throw GoogleError(.unregistered)
            case .foreignSender: throw GoogleError(.senderIDMismatch)
            }
        }
        return info
    }
}
