import HTTP
import JSON
import Synchronization

/// A mock OneSignal REST API: `POST /notifications` (api.onesignal.com) and `POST /api/v1/notifications`
/// (onesignal.com's older route), `GET /notifications/{id}?app_id=`, for two apps (standard and VoIP),
/// each with its own REST API key, judged like the real API and recorded in the `CaptureLog`.
///
/// Recipients come from the `audience`, set per scenario: a notification reaches the subscribed devices
/// of the external IDs it targets in its app, and reports how many (`recipients`, what the kit reads).
public final class OneSignalMock: HTTPHandler {
    /// The app of ordinary pushes.
    public let standardApp: OneSignalApp
    /// The separate app of VoIP pushes.
    public let voipApp: OneSignalApp
    /// Who is subscribed in each app.
    public let audience: OneSignalAudience
    /// Where every request is recorded.
    public let log: CaptureLog
    /// The fault plans consulted on every request.
    public let faults: FaultPlans?
    /// The time source for timestamps.
    public let clock: MockClock
    /// Why the apps kept in the state directory could not be read; `settings` reports it.
    let keyFileError: (any Error)?
    /// The notifications created, by ID, for `GET /notifications/{id}`.
    private let created = Mutex<[String: Created]>([:])
    /// The answers to requests that carried an idempotency key: a repeat gets the first one again.
    let idempotency = OneSignalIdempotency()

    struct Created {
        var appID: String
        var recipients: Int
        var queuedAt: Int64
        var body: JSONValue
    }

    /// The routes of create notification: the current one and the older one.
    public static let createPaths: Set<String> = ["/notifications", "/api/v1/notifications"]

    /// A mock of `standardApp` and `voipApp` (new random ones unless given), recording into `log`.
    public convenience init(
        standardApp: OneSignalApp = .generate(.standard), voipApp: OneSignalApp = .generate(.voip),
        audience: OneSignalAudience = OneSignalAudience(), log: CaptureLog, faults: FaultPlans? = nil,
        clock: MockClock = .system
    ) {
        self.init(
            standardApp: standardApp, voipApp: voipApp, audience: audience, log: log, faults: faults, clock: clock,
            keyFileError: nil)
    }

    init(
        standardApp: OneSignalApp, voipApp: OneSignalApp, audience: OneSignalAudience, log: CaptureLog,
        faults: FaultPlans?, clock: MockClock, keyFileError: (any Error)?
    ) {
        self.keyFileError = keyFileError
        self.standardApp = standardApp
        self.voipApp = voipApp
        self.audience = audience
        self.log = log
        self.faults = faults
        self.clock = clock
    }

    /// Both apps.
    public var apps: [OneSignalApp] { [standardApp, voipApp] }

    /// The app of `role`.
    public func app(_ role: OneSignalApp.Role) -> OneSignalApp { role == .standard ? standardApp : voipApp }

    /// The app whose ID is `appID`, nil for an unknown one.
    public func app(id appID: String) -> OneSignalApp? {
        apps.first { $0.appID.lowercased() == appID.lowercased() }
    }

    // MARK: Audience

    /// Gives `externalId` `devices` subscribed devices in the app `appId` (replacing what it had).
    public func subscribe(externalId: String, appId: String, devices: Int = 1) {
        audience.subscribe(externalId: externalId, appId: appId, devices: devices)
    }

    /// Gives `externalId` `devices` subscribed devices in the app of `role`.
    public func subscribe(externalId: String, app role: OneSignalApp.Role, devices: Int = 1) {
        subscribe(externalId: externalId, appId: app(role).appID, devices: devices)
    }

    /// Removes the subscriptions of `externalId` in `appId`.
    @discardableResult
    public func unsubscribe(externalId: String, appId: String) -> Bool {
        audience.unsubscribe(externalId: externalId, appId: appId)
    }

    /// Chooses how `appId` answers a notification that reaches nobody.
    public func setEmptyAudienceAnswer(_ answer: OneSignalEmptyAudienceAnswer, appId: String) {
        audience.setEmptyAudienceAnswer(answer, appId: appId)
    }

    // MARK: Requests

    /// Judges and answers one request, recording it in the capture log.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let now = clock()
        var capture = Capture(
            request: request, mock: .onesignal, arrivalMs: request.arrivalMs > 0 ? request.arrivalMs : now)
        let json = request.body.isEmpty || request.body.count > 1 << 20 ? nil : try? JSONValue.parse(request.body)
        capture.json = json
        // The keys never appear in rendered captures, wherever a backend put them.
        for app in apps { capture.secrets.append(CaptureSecret(value: app.apiKey, replacement: "<redacted>")) }
        if let credential = Self.credential(request.headers["authorization"]), !credential.key.isEmpty {
            capture.secrets.append(CaptureSecret(value: credential.key, replacement: "<redacted>"))
        }

        return await FaultedAnswer.answer(
            capture, fault: faults?.next(mock: .onesignal, deviceToken: nil), log: log,
            injected: { respond, planID in
                let error = OneSignalError(
                    respond.status ?? 500,
                    [respond.message ?? respond.reason ?? "Injected by ringcheck fault \(planID)"])
                return MockRefusal(response: error.response, reason: error.reason, detail: nil)
            },
            judge: { (capture: inout Capture) throws(OneSignalError) -> HTTPResponse in
                let answered = try answer(request, json: json, nowMs: now)
                if answered.repeated {
                    capture.detail = "a repeated idempotency_key: the first request's answer again, nothing sent"
                }
                return answered.response
            },
            refused: {
                MockRefusal(response: $0.response, reason: $0.reason, detail: $0.messages.joined(separator: "; "))
            })
    }

    /// The key of an `Authorization: Key <key>` or `Basic <key>` header (the key as-is, as OneSignal's
    /// clients send it), and the scheme; nil for none or another scheme.
    static func credential(_ header: String?) -> (scheme: String, key: String)? {
        guard let header, let space = header.firstIndex(of: " ") else { return nil }
        let scheme = header[..<space].lowercased()
        guard scheme == "key" || scheme == "basic" else { return nil }
        return (scheme, header[header.index(after: space)...].trimmingSpaces)
    }

    /// Route, key, body and audience, in the order OneSignal checks them.
    func answer(_ request: HTTPRequest, json: JSONValue?, nowMs: Int64) throws(OneSignalError) -> (
        response: HTTPResponse, repeated: Bool
    ) {
        let path =
            request.path.count > 1 && request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        if Self.createPaths.contains(path) {
            guard request.method == "POST" else { throw OneSignalError(405, ["Method Not Allowed"]) }
            return try create(request, json: json, nowMs: nowMs)
        }
        for prefix in Self.createPaths where path.hasPrefix(prefix + "/") {
            let id = String(path.dropFirst(prefix.count + 1))
            guard !id.contains("/") else { break }
            guard request.method == "GET" else { throw OneSignalError(405, ["Method Not Allowed"]) }
            return (try view(request, id: percentDecode(id)), false)
        }
        throw OneSignalError(404, ["Not Found: \(ImpersonationRouter.printable(path)) is no OneSignal route here"])
    }

    /// The app `appID` names, when the request's key is that app's; else 403.
    func authorize(_ request: HTTPRequest, appID: String) throws(OneSignalError) -> OneSignalApp {
        guard let credential = Self.credential(request.headers["authorization"]), let app = app(id: appID),
            credential.key == app.apiKey
        else { throw OneSignalError.accessDenied }
        return app
    }

    /// Creates a notification, or answers a repeated idempotency key with the first request's answer (`repeated`).
    func create(_ request: HTTPRequest, json: JSONValue?, nowMs: Int64) throws(OneSignalError) -> (
        response: HTTPResponse, repeated: Bool
    ) {
        guard let json, json.objectValue != nil, let appID = OneSignalNotification.appID(in: json), !appID.isEmpty
        else { throw OneSignalError.appIDNotFound }
        guard MockIDs.isUUID(appID) else {
            throw OneSignalError(400, ["app_id must be a UUID (got \(ImpersonationRouter.printable(appID)))"])
        }
        let app = try authorize(request, appID: appID)
        let notification = try OneSignalNotification.parse(json)
        if let key = notification.idempotencyKey,
            let earlier = idempotency.earlier(appID: app.appID, key: key, nowMs: nowMs)
        {
            return (earlier, true)
        }
        let (recipients, unknown) = reach(notification, app: app)
        var body: [(key: String, value: JSONValue)] = []
        if recipients > 0 {
            let id = MockIDs.lowercaseUUID()
            created.withLock {
                $0[id] = Created(appID: app.appID, recipients: recipients, queuedAt: nowMs / 1000, body: json)
            }
            body = [("id", .string(id)), ("external_id", Self.echo(notification)), ("recipients", .int(recipients))]
            if audience.emptyAudienceAnswer(appId: app.appID) == .invalidAliases, !unknown.isEmpty {
                body.append(("errors", ["invalid_aliases": Self.aliasesJSON(unknown)]))
            }
        } else if audience.emptyAudienceAnswer(appId: app.appID) == .invalidAliases, !unknown.isEmpty {
            body = [
                ("id", ""), ("external_id", Self.echo(notification)),
                ("errors", ["invalid_aliases": Self.aliasesJSON(unknown)]),
            ]
        } else {
            body = [
                ("id", ""), ("external_id", Self.echo(notification)),
                ("errors", [.string(OneSignalError.notSubscribed)]), ("recipients", .int(0)),
            ]
        }
        if !audience.answersRecipients(appId: app.appID) { body.removeAll { $0.key == "recipients" } }
        let response = HTTPResponse.json(
            200, JSONValue.object(body).bytes(), headers: ["content-type": "application/json; charset=utf-8"])
        if let key = notification.idempotencyKey {
            idempotency.remember(appID: app.appID, key: key, answer: response, nowMs: nowMs)
        }
        return (response, false)
    }

    /// The devices `notification` reaches in `app`, and the alias IDs it targets that have none.
    func reach(_ notification: OneSignalNotification, app: OneSignalApp) -> (Int, [(String, [String])]) {
        // The audience holds push subscriptions only: email and SMS reach nobody.
        let push = (notification.targetChannel ?? "push") == "push"
        switch notification.targeting {
        case .aliases(let aliases):
            var recipients = 0
            var unknown: [(String, [String])] = []
            for label in aliases.keys.sorted() {
                var missing: [String] = []
                var seen: Set<String> = []
                for id in aliases[label] ?? [] where seen.insert(id).inserted {
                    let devices =
                        push && label == "external_id" ? audience.devices(externalId: id, appId: app.appID) : 0
                    if devices > 0 { recipients += devices } else { missing.append(id) }
                }
                if !missing.isEmpty { unknown.append((label, missing)) }
            }
            return (recipients, unknown)
        case .segments: return (push ? audience.allDevices(appId: app.appID) : 0, [])
        case .filters, .ids: return (0, [])
        }
    }

    static func aliasesJSON(_ unknown: [(String, [String])]) -> JSONValue {
        .object(unknown.map { (key: $0.0, value: .array($0.1.map { .string($0) })) })
    }

    /// The answer's `external_id`: the request's idempotency key, else null.
    static func echo(_ notification: OneSignalNotification) -> JSONValue {
        notification.idempotencyKey.map { .string($0) } ?? .null
    }

    /// `GET /notifications/{id}?app_id=`: what became of a notification (every recipient counted successful).
    func view(_ request: HTTPRequest, id: String) throws(OneSignalError) -> HTTPResponse {
        guard let appID = request.query["app_id"], !appID.isEmpty else { throw OneSignalError.appIDNotFound }
        let app = try authorize(request, appID: appID)
        guard let found = created.withLock({ $0[id] }), found.appID == app.appID else {
            throw OneSignalError(404, ["Notification not found"])
        }
        var body: [(key: String, value: JSONValue)] = [
            ("id", .string(id)), ("app_id", .string(app.appID)), ("successful", .int(found.recipients)),
            ("failed", 0), ("errored", 0), ("converted", 0), ("remaining", 0),
            ("queued_at", .int(found.queuedAt)), ("send_after", .int(found.queuedAt)),
            ("completed_at", .int(found.queuedAt)), ("canceled", false),
        ]
        for field in ["contents", "headings", "data", "include_aliases", "target_channel"] {
            if let value = found.body[field] { body.append((field, value)) }
        }
        return HTTPResponse.json(
            200, JSONValue.object(body).bytes(), headers: ["content-type": "application/json; charset=utf-8"])
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
