import Conformance
import HTTP
import JSON
import PushMocks

extension CallxLoadWorkload {
    // MARK: Sending

    /// Sends `operation` in the reference design's shape through the target's mapping, as the engine
    /// and `FakeCaller` do, and reads the answer back into the reference shape.
    func send(
        _ operation: RequestOperation, _ method: String, _ path: String, as user: TargetUser, body: JSONValue? = nil,
        values: [String: JSONValue] = [:], installation: String? = nil
    ) async -> (status: Int?, json: JSONValue?, error: String?) {
        var values = values
        values["userId"] = .string(user.userId)
        let canonical = PreparedRequest(
            actor: user.userId, method: method, path: path, credentials: user.authHeaders, body: body,
            operation: operation, values: values, actorInstallation: installation)
        let p = target.wire(canonical)
        do {
            let r = try await client.send(target.clientRequest(p))
            let n = target.normalize(operation, status: r.status, json: try? JSONValue.parse(r.body))
            return (n.status, n.json, nil)
        } catch {
            return (nil, nil, "\(error)")
        }
    }

    /// Sends one call operation and records it in the history with its invoke and complete times.
    @discardableResult
    func perform(
        _ kind: LoadOperation.Kind, callId: String, as user: TargetUser, installationId: String? = nil,
        body: JSONValue? = nil, isRetry: Bool = false
    ) async -> LoadOperation {
        let (operation, method, template): (RequestOperation, String, String) =
            switch kind {
            case .create: (.create, "POST", target.routes.calls)
            case .answer: (.answer, "POST", target.routes.answer)
            case .end: (.end, "POST", target.routes.end)
            default: (.get, "GET", target.routes.call)
            }
        var values: [String: JSONValue] = ["callId": .string(callId)]
        if let installationId { values["installationId"] = .string(installationId) }
        let invoked = ContinuousClock.now
        let invokeMs = LoadDriver.wallMs()
        let reply = await send(
            operation, method, RequestTemplate.fill(template, ["callId": callId]), as: user, body: body, values: values,
            installation: installationId ?? callerInstallation(user))
        let latency = LoadDriver.seconds(ContinuousClock.now - invoked) * 1000
        let json = reply.json
        let op = LoadOperation(
            kind: kind, callId: callId, installationId: installationId,
            operationId: body?["operationId"]?.stringValue, isRetry: isRetry, reason: body?["reason"]?.stringValue,
            invokeMs: invokeMs, completeMs: LoadDriver.wallMs(), status: reply.status,
            error: json?["error"]?["code"]?.stringValue ?? reply.error.map { "no answer: \($0)" },
            state: json?["state"]?.stringValue, revision: Self.revision(json?["revision"]),
            winner: json?["answeredByInstallationId"]?.stringValue, expiresAtMs: json?["expiresAtMs"]?.epochMsValue)
        recorder.latency(kind.rawValue, ms: latency, answered: reply.status != nil)
        judge.record(op)
        return op
    }

    /// The installation a caller acts from (its feed's), for targets that name one on every operation.
    func callerInstallation(_ user: TargetUser) -> String? {
        callers.firstIndex(of: user).map { callerFeeds[$0] }
    }

    static func revision(_ v: JSONValue?) -> Int64? {
        v?.stringValue.flatMap { Int64($0) } ?? v?.int64Value
    }

    static func operationId() -> String { "ringcheck-load-" + RandomText.alphanumeric(12) }

    // MARK: Before the calls

    /// Registers each caller's installation and every callee's virtual devices; the reason when one
    /// cannot be registered.
    func registerDevices() async -> String? {
        // A conforming backend sends a caller's VoIP installation nothing: VoIP pushes are invitations.
        let owned =
            zip(callers, callerInstallations).map { ($0.0, [$0.1]) } + zip(callees, devices).map { ($0.0, $0.1) }
        for (user, list) in owned {
            for d in list {
                let registration = d.registration(on: target)
                let invoked = ContinuousClock.now
                let reply = await send(
                    .registerToken, "PUT", registration.path, as: user, body: registration.body,
                    values: registration.values, installation: d.installationId)
                recorder.latency(
                    LoadOperation.Kind.register.rawValue, ms: LoadDriver.seconds(ContinuousClock.now - invoked) * 1000)
                guard let status = reply.status, (200..<300).contains(status) else {
                    return "registering \(d.name) of \(user.userId) failed: "
                        + (reply.status.map { "HTTP \($0)" } ?? reply.error ?? "?")
                }
                mocks?.providers.registry.register(
                    token: d.token, environment: d.environment, atMs: LoadDriver.wallMs())
            }
        }
        return nil
    }

    // MARK: Feeds

    /// Reads `feed` every `feedPollMs` (at once again after a full page) until the driver says stop.
    func follow(_ feed: (installation: String, user: TargetUser), until stopped: @Sendable () -> Bool) async {
        while !stopped() {
            let full = await readPage(feed, record: true)
            if full != true { try? await Task.sleep(for: .milliseconds(settings.feedPollMs)) }
        }
    }

    /// Reads `feed` to its end (at most 1,000 pages); whether it got there.
    @discardableResult
    func drain(_ feed: (installation: String, user: TargetUser), record: Bool) async -> Bool {
        for _ in 0..<1_000 {
            guard let full = await readPage(feed, record: record) else { return false }
            if !full { return true }
        }
        return false
    }

    /// Reads one page from the feed's cursor and records it; whether the page was full (more may
    /// follow), nil when it could not be read.
    func readPage(_ feed: (installation: String, user: TargetUser), record: Bool) async -> Bool? {
        let cursor = cursors.withLock { $0[feed.installation] }
        var path = target.routes.events + "?installationId=" + RequestTemplate.percentEncode(feed.installation)
        var values: [String: JSONValue] = ["installationId": .string(feed.installation)]
        if let cursor {
            path += "&cursor=" + RequestTemplate.percentEncode(cursor)
            values["cursor"] = .string(cursor)
        }
        let invoked = ContinuousClock.now
        let reply = await send(.events, "GET", path, as: feed.user, values: values, installation: feed.installation)
        recorder.latency(
            LoadOperation.Kind.events.rawValue, ms: LoadDriver.seconds(ContinuousClock.now - invoked) * 1000)
        guard let status = reply.status, (200..<300).contains(status), let json = reply.json else {
            recorder.problem(
                "reading feed \(feed.installation): " + (reply.status.map { "HTTP \($0)" } ?? reply.error ?? "?"))
            return nil
        }
        let events = json["events"]?.arrayValue ?? []
        let next = json["nextCursor"]?.stringValue
        if let next { cursors.withLock { $0[feed.installation] = next } }
        let full = !events.isEmpty && next != nil && next != cursor
        if record {
            let now = LoadDriver.wallMs()
            var entries: [FeedEntry] = FeedGap.isSignalled(json["gap"]) ? [.gap(atMs: now)] : []
            for e in events {
                entries.append(
                    .event(
                        FeedEvent(
                            eventId: e["eventId"]?.stringValue ?? e.serialized(),
                            callId: e["callId"]?.stringValue ?? "",
                            type: e["type"]?.stringValue ?? "?", revision: Self.revision(e["revision"]),
                            answeredBy: e["answeredByInstallationId"]?.stringValue, reason: e["reason"]?.stringValue,
                            readAtMs: now)))
            }
            judge.feed(feed.installation, entries: entries, raw: events, atMs: now, readToEnd: !full)
        }
        return full
    }
}
