import Conformance
import Foundation
import HTTP
import JSON
import PushMocks
import Signing

extension DialStackTrigger {
    // MARK: Devices

    /// Registers the user's phone (APNs VoIP, sandbox) and tablet (FCM), and the bystander's phone, through the
    /// backend's token API; the reason when one cannot be registered.
    func registerDevices() async -> String? {
        var wanted: [(VirtualCallee, String, String)] = []
        if let bearer = plan.bearer {
            for d in VirtualCallee.pair(prefix: VirtualCallee.freshPrefix("ringcheck")) {
                wanted.append((d, plan.userId, bearer))
            }
        }
        if let bystander = plan.bystander,
            let phone = VirtualCallee.pair(prefix: VirtualCallee.freshPrefix("ringcheck")).first
        {
            var d = phone
            d.name = "bystander-phone"
            wanted.append((d, bystander.userId, bystander.bearer))
        }
        let target = registrationTarget
        for (d, user, bearer) in wanted where !cleanedUp {
            let registration = d.registration(on: target)
            let r = await send(
                "PUT", target.baseURL + registration.path, bearer: bearer, body: registration.body.serialized())
            let sent = "PUT \(registration.path)"
            guard let status = r.status else {
                return
                    "the backend at \(target.baseURL) could not be reached: \(sent) → no response (\(r.error ?? "?"))"
            }
            guard (200..<300).contains(status) else {
                return "registering the virtual \(d.name) for \(user) failed: \(sent) → "
                    + Self.answerText(status, r.body, nil) + (r.body.count > 200 ? "…" : "")
                    + Self.registrationHint(status)
            }
            devices.append((d, user, bearer))
            emit(
                entry(
                    .setup,
                    "registered virtual \(d.name) for \(user): \(d.kind.rawValue)\(d.environment.map { " (\($0.rawValue))" } ?? "") token \(Redaction.shortToken(d.token)) → \(status)",
                    [("device", .string(d.name)), ("user", .string(user)), ("pushKind", .string(d.kind.rawValue))]))
            // Ctrl-C came while this one registered: the clean-up already ran, so it is removed here.
            if cleanedUp { await removeDevices() }
        }
        return nil
    }

    /// Deletes the tokens registered, newest first; a refused delete is a note. The list is taken first, so a
    /// second caller (Ctrl-C during the first) deletes nothing twice.
    func removeDevices() async {
        let target = registrationTarget
        let registered = devices
        devices = []
        for (d, user, bearer) in registered.reversed() {
            let path = d.registration(on: target).path
            let r = await send("DELETE", target.baseURL + path, bearer: bearer, body: nil)
            let answer = r.status.map(String.init) ?? "no response (\(r.error ?? "?"))"
            let ok = r.status.map { (200..<300).contains($0) } ?? false
            emit(
                entry(
                    ok ? .setup : .note,
                    ok
                        ? "removed virtual \(d.name) of \(user): DELETE \(path) → \(answer)"
                        : "could not remove virtual \(d.name) of \(user): DELETE \(path) → \(answer); the backend may keep its token",
                    [("device", .string(d.name))]))
        }
    }

    /// The backend as the token API sees it: the plan's API base, the mocks' bundle ID as the app ID.
    var registrationTarget: Target {
        Target(
            name: "backend", baseURL: plan.apiBaseURL, accounts: { _, _ in nil }, capabilities: [.sandbox],
            appId: mocks?.providers.credentials.bundleID ?? MockCredentials.defaultBundleID)
    }

    func send(_ method: String, _ url: String, bearer: String, body: String?) async
        -> (status: Int?, body: [UInt8], error: String?)
    {
        var headers = HTTPHeaders()
        headers.add("authorization", "Bearer \(bearer)")
        if body != nil { headers.add("content-type", "application/json") }
        return await send(method, url, headers: headers, body: body.map { Array($0.utf8) } ?? [])
    }

    /// What a refused registration's `status` suggests, after the backend's own answer: a refused bearer (401,
    /// 403) its token; a failure behind the backend (5xx) a service it calls while registering that this
    /// trigger's fresh mocks do not serve to it (DialStack's API, for Wake-Up Hold); any other the token API's
    /// shape.
    static func registrationHint(_ status: Int) -> String {
        switch status {
        case 401, 403:
            return " (check --bearer and --api)"
        case 500...:
            return "; the backend failed while registering the token: it may depend on a service ringcheck's fresh "
                + "mocks do not serve to it, such as DialStack's API (RINGCHECK_DIALSTACK_API_URL, called for "
                + "Wake-Up Hold): start the backend with the settings of --mocks-dir DIR and give the trigger the "
                + "same --mocks-dir and --port dialstack=PORT (docs/profiles/dialstack.md)"
        default:
            return " (check --api and that the backend takes PUT /v1/installations/{id}/push-tokens/{kind}; "
                + "--no-devices skips the registration)"
        }
    }

    // MARK: The webhook

    /// Posts the event signed as `signature` says (compact, as DialStack sends it) and puts the exchange on the
    /// timeline; the status, nil when the backend did not answer.
    func deliver(_ signature: WebhookSignatureVariant, what: String) async -> Int? {
        let body = DialStackBodyFormat.compact.body(event)
        let signed = signature.sign(body, secret: Array(plan.secret.utf8), now: Int64(Date().timeIntervalSince1970))
        var headers = HTTPHeaders()
        headers.add("content-type", "application/json")
        if let value = signed.headerValue { headers.add(WebhookStep.headerName, value) }
        let eventId = event["id"]?.stringValue ?? ""
        let type = event["type"]?.stringValue ?? ""
        let sentAtMs = Int64(Date().timeIntervalSince1970 * 1000)
        let r = await send("POST", plan.webhookURL, headers: headers, body: signed.body)
        let status = r.status
        let answer = Self.answerText(r.status, r.body, r.error)
        var data: [String: String] = [:]
        for member in event["data"]?.objectValue ?? [] { data[member.key] = member.value.stringValue }
        deliveries.append(
            DialStackDelivery(
                eventId: eventId, type: type, callId: callId, user: plan.userId, data: data, sentAtMs: sentAtMs,
                signedValidly: signature.isValid, status: status))
        emit(
            entry(
                .action,
                "POST \(Self.path(of: plan.webhookURL))\(what): \(type) \(eventId) for \(plan.userId), signature \(signature.name) → \(answer)",
                [
                    ("eventId", .string(eventId)), ("type", .string(type)), ("callId", .string(callId)),
                    ("signature", .string(signature.name)), ("status", status.map { .int($0) } ?? .null),
                ], atMs: sentAtMs))
        return status
    }

    // MARK: Watching the mocks

    /// A push for the event.
    public func arrivals() -> @Sendable (Capture) -> Bool {
        let id = callId
        return { DialStackPush($0)?.carries(id) ?? false }
    }

    /// `APNs sandbox accepted VoIP wake-up for call_… to phone (voip, priority 10, apns-expiration 1765…)`.
    public func describe(_ c: Capture) -> String {
        let device = devices.first { Self.capture(c, isFor: $0.device) }?.device.name ?? Self.shortTarget(c)
        return pushLine(c, what: DialStackPush(c).map { summary(of: $0) } ?? "push", device: device)
    }

    public func fields(_ c: Capture) -> [(key: String, value: JSONValue)] {
        let device = devices.first { Self.capture(c, isFor: $0.device) }
        return [
            ("sequence", .int(c.sequence)), ("provider", .string(c.mock.rawValue)),
            ("device", .string(device?.device.name ?? Self.shortTarget(c))),
            ("user", device.map { .string($0.user) } ?? .null), ("accepted", .bool(c.outcome.isAccepted)),
            ("status", .int(c.response.status)),
            ("callId", DialStackPush(c).flatMap(tiedCall).map { .string($0) } ?? .null),
        ]
    }

    /// The call a push is for on the timeline: the event's when it carries its call ID under any key (by content),
    /// else the one it names under `call_id`/`callId`, if any.
    func tiedCall(_ push: DialStackPush) -> String? { push.carries(callId) ? callId : push.callId }

    /// `VoIP wake-up for call_…` (the call `tiedCall` finds), `… without the call ID` when none.
    func summary(of push: DialStackPush) -> String {
        let name = push.platform == .apns ? "VoIP wake-up" : "FCM wake-up"
        return "\(name) \(tiedCall(push).map { "for \($0)" } ?? "without the call ID")"
    }

    /// Whether `c` was sent to the virtual device `d` (as the fake caller tells its devices' pushes).
    static func capture(_ c: Capture, isFor d: VirtualCallee) -> Bool { d.receives(c) }

    /// A device ringcheck did not register, by its shortened token.
    static func shortTarget(_ c: Capture) -> String {
        "device " + Redaction.shortToken(c.deviceToken ?? c.fcmTarget?.value ?? "?")
    }
}
