import Conformance
import HTTP
import JSON
import PushMocks

extension FakeCaller {
    // MARK: Sending

    /// The answer to one request: its status and JSON body, or why there was none.
    struct Reply {
        var status: Int?
        var json: JSONValue?
        var body: String
        var error: String?
        /// `POST /v1/calls/…/end` as it went to the backend (after the target's mapping).
        var sent = ""

        var ok: Bool { status.map { (200..<300).contains($0) } ?? false }
        /// `200`, `409 call_exists`, or `no response (…)`, for the timeline.
        var summary: String {
            guard let status else { return "no response (\(error ?? "?"))" }
            if let code = json?["error"]?["code"]?.stringValue { return "\(status) \(code)" }
            if let state = json?["state"]?.stringValue { return "\(status) \(state)" }
            return "\(status)"
        }
    }

    /// Sends `operation` in the reference design's shape, as the target's mapping (if any) turns it into
    /// the backend's own request, and reads the answer back into the reference shape.
    func send(
        _ operation: RequestOperation, _ method: String, _ path: String, as user: TargetUser, body: JSONValue? = nil,
        values: [String: JSONValue] = [:]
    ) async -> Reply {
        var values = values
        values["userId"] = .string(user.userId)
        // The installation the request comes from: the device's, else the caller's own (its event feed),
        // for targets that name one on every operation.
        let installation =
            values["installationId"]?.stringValue ?? (user == plan.caller ? plan.callerInstallationId : nil)
        let canonical = PreparedRequest(
            actor: user.userId, method: method, path: path, credentials: user.authHeaders, body: body,
            operation: operation, values: values, actorInstallation: installation)
        let p = target.wire(canonical)
        let sent = "\(p.method) \(p.path)"
        do {
            let r = try await client.send(target.clientRequest(p))
            let n = target.normalize(operation, status: r.status, json: try? JSONValue.parse(r.body))
            return Reply(status: n.status, json: n.json, body: r.bodyString, error: nil, sent: sent)
        } catch {
            return Reply(status: nil, json: nil, body: "", error: "\(error)", sent: sent)
        }
    }

    func callPath(_ template: String) -> String { RequestTemplate.fill(template, ["callId": callId]) }

    func operationId() -> String { "ringcheck-call-" + RandomText.alphanumeric(12) }

    // MARK: Before the call

    /// Registers the caller's installation (when the plan gives it a token) and the callee's virtual
    /// devices; the reason when one cannot be registered.
    func registerDevices() async -> String? {
        if let token = plan.callerInstallationToken {
            let installation = VirtualCallee(
                name: "installation", kind: .apnsVoip, environment: plan.calleeDevices.first?.environment,
                installationId: plan.callerInstallationId, token: token)
            if let failure = await register(installation, of: plan.caller) { return failure }
        }
        for d in plan.calleeDevices {
            if let failure = await register(d, of: plan.callee) { return failure }
        }
        return nil
    }

    /// Registers `d` for `user`; the reason when it cannot be registered.
    func register(_ d: VirtualCallee, of user: TargetUser) async -> String? {
        let registration = d.registration(on: target)
        let reply = await send(
            .registerToken, "PUT", registration.path, as: user, body: registration.body, values: registration.values)
        guard reply.ok else {
            return
                "registering the virtual \(d.name) for \(user.userId) failed: \(reply.sent) → \(reply.summary)"
        }
        registered.append(RegisteredDevice(device: d, user: user, saved: savedValues(ofRegistration: reply)))
        mocks?.providers.registry.register(token: d.token, environment: d.environment, atMs: Self.wallMs())
        entry(
            .setup,
            "registered virtual \(d.name) for \(user.userId): \(d.kind.rawValue)\(d.environment.map { " (\($0.rawValue))" } ?? "") token \(Redaction.shortToken(d.token))",
            [
                ("device", .string(d.name)), ("installationId", .string(d.installationId)),
                ("pushKind", .string(d.kind.rawValue)),
            ])
        return nil
    }

    /// Reads the caller's feed to its end, so only events after this point are followed.
    func primeFeed() async {
        for _ in 0..<100 {
            guard let page = await readFeedPage() else { return }
            if page.events.isEmpty || !page.moved { return }
        }
    }

    /// Creates the call; the reason when it was not created.
    func createCall() async -> String? {
        var body: JSONValue = [
            "callId": .string(callId), "calleeUserId": .string(plan.callee.userId),
            "operationId": .string(operationId()),
        ]
        if plan.video { body = body.setting("video", to: true) }
        let reply = await send(.create, "POST", target.routes.calls, as: plan.caller, body: body)
        guard reply.ok, let snapshot = reply.json else {
            if reply.status == nil {
                return "the backend at \(target.baseURL) could not be reached: \(reply.error ?? "?")"
            }
            return
                "the backend refused to create the call: \(reply.sent) → \(reply.summary) \(reply.body.prefix(300))"
        }
        var fields: [(key: String, value: JSONValue)] = [("callId", .string(callId)), ("snapshot", snapshot)]
        var message = "created call \(callId) from \(plan.caller.userId) to \(plan.callee.userId)"
        if plan.video { message += " (video)" }
        if let created = snapshot["createdAtMs"]?.epochMsValue, let expires = snapshot["expiresAtMs"]?.epochMsValue {
            let ringSeconds = (Double(expires) - Double(created)) / 1000
            message += String(format: ", rings for %.0fs", ringSeconds)
            fields.append(("ringSeconds", .double(ringSeconds)))
        }
        entry(.created, message, fields)
        observe(.snapshot(snapshot))
        return nil
    }

    // MARK: Following the call

    /// One page of the caller's feed from the cursor; nil when it cannot be read.
    func readFeedPage() async -> (events: [JSONValue], moved: Bool)? {
        guard feedWorks else { return nil }
        var path = target.routes.events + "?installationId=" + RequestTemplate.percentEncode(plan.callerInstallationId)
        if let feedCursor { path += "&cursor=" + RequestTemplate.percentEncode(feedCursor) }
        var values: [String: JSONValue] = ["installationId": .string(plan.callerInstallationId)]
        if let feedCursor { values["cursor"] = .string(feedCursor) }
        let reply = await send(.events, "GET", path, as: plan.caller, values: values)
        guard reply.ok, let json = reply.json else {
            if reply.status == nil {
                failedRequest(reply)
            } else {
                feedWorks = false
                note("the caller's event feed answered \(reply.summary); following the call through its snapshot only")
            }
            return nil
        }
        consecutiveFailures = 0
        let events = json["events"]?.arrayValue ?? []
        let next = json["nextCursor"]?.stringValue
        let moved = next != nil && next != feedCursor
        if let next { feedCursor = next }
        return (events, moved)
    }

    /// Reads new events for this call from the caller's feed.
    func pollFeed() async {
        for _ in 0..<20 {
            guard let page = await readFeedPage() else { return }
            for e in page.events where e["callId"]?.stringValue == callId {
                let id = e["eventId"]?.stringValue ?? e.serialized()
                guard seenEventIds.insert(id).inserted else { continue }
                let type = e["type"]?.stringValue ?? "?"
                var message = "event \(type)"
                if let rev = e["revision"]?.stringValue { message += " rev \(rev)" }
                if let reason = e["reason"]?.stringValue { message += " (\(reason))" }
                if let who = e["answeredByInstallationId"]?.stringValue { message += " (by \(who))" }
                entry(.event, message, [("event", e)])
                observe(.event(e))
            }
            if page.events.isEmpty || !page.moved { return }
        }
    }

    /// Reads the call's snapshot.
    func pollSnapshot() async {
        let reply = await send(
            .get, "GET", callPath(target.routes.call), as: plan.caller, values: ["callId": .string(callId)])
        guard reply.ok, let json = reply.json else {
            failedRequest(reply)
            return
        }
        consecutiveFailures = 0
        observe(.snapshot(json))
    }

    /// Counts requests that got no usable answer; too many in a row and the call cannot be followed.
    func failedRequest(_ reply: Reply) {
        consecutiveFailures += 1
        if consecutiveFailures == 1 { note("following the call: \(reply.summary)") }
        if consecutiveFailures >= 30 {
            stopReason = "lost the backend while following the call: \(reply.summary)"
        }
    }

    // MARK: Ending

    /// Ends the call as the caller with `reason` (one operation ID for every retry).
    func end(reason: String, why: String) async {
        if !endRequested {
            endRequested = true
            endOperationId = operationId()
            progress.weAskedToEnd(reason: reason)
        }
        endAttempts += 1
        let body: JSONValue = ["operationId": .string(endOperationId), "reason": .string(reason)]
        let path = callPath(target.routes.end)
        let before = progress.state
        let reply = await send(.end, "POST", path, as: plan.caller, body: body, values: ["callId": .string(callId)])
        // Who ended the call is known from our own request, not from the reason the backend stored.
        if reply.ok { progress.ourEndAccepted(stateWhenSent: before) }
        entry(
            .action, "\(why): \(reply.sent) (\(reason)) → \(reply.summary)",
            [("reason", .string(reason)), ("status", reply.status.map { .int($0) } ?? .null)])
        // A conflict may carry the call's snapshot beside the error: it still says how the call stands.
        if let json = reply.json, json["state"] != nil { observe(.snapshot(json)) }
        if reply.ok, progress.state != .ended {
            emitChange(
                progress.addFinding(
                    "the end request answered \(reply.summary) but the call is \(reply.json?["state"]?.stringValue ?? "not ended")"
                ))
            stopReason = "the backend did not end the call when the caller ended it"
        }
    }
}
