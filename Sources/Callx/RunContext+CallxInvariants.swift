import Conformance
import JSON
import PushMocks
import Reports

extension RunContext {
    // MARK: What the invariants need

    /// Notes what a response or event says about a call: expiry, and when it was seen answered or ended.
    func observeCall(_ json: JSONValue, isEvent: Bool) {
        guard let callId = json["callId"]?.stringValue else { return }
        var t = callx.calls[callId] ?? CallTimeline(callId: callId)
        let now = nowMs
        if !isEvent {
            if let v = json["createdAtMs"]?.epochMsValue { t.createdAtMs = v }
            if let v = json["expiresAtMs"]?.epochMsValue { t.expiresAtMs = v }
        }
        let state = isEvent ? json["type"]?.stringValue : json["state"]?.stringValue
        switch state {
        case "accepted", "call.accepted": t.answeredObservedAtMs = min(t.answeredObservedAtMs ?? now, now)
        case "ended", "call.ended": t.endedObservedAtMs = min(t.endedObservedAtMs ?? now, now)
        default: break
        }
        callx.calls[callId] = t
    }

    /// Notes whether a create asked for a video call: the invitation's `video` is judged against the
    /// request only (the seed's create body has no video field, so a backend need not echo one).
    func observeCreate(_ request: PreparedRequest, _ exchange: Exchange) {
        guard exchange.isSuccess, let callId = request.body?["callId"]?.stringValue else { return }
        var t = callx.calls[callId] ?? CallTimeline(callId: callId)
        t.video = request.body?["video"]?.boolValue
        callx.calls[callId] = t
    }

    /// Remembers the secret values of a media-session response.
    func observeMediaSession(_ json: JSONValue) {
        let skip: Set<String> = ["callId", "userId", "installationId", "expiresAtMs", "schemaVersion"]
        func walk(_ v: JSONValue, key: String?) {
            switch v {
            case .string(let s) where s.utf8.count >= 12 && !(key.map(skip.contains) ?? false):
                callx.mediaCredentials.append(s)
            case .object(let members): for m in members { walk(m.value, key: m.key) }
            case .array(let items): for i in items { walk(i, key: key) }
            default: break
            }
        }
        walk(json, key: nil)
    }

    // MARK: Running the invariants

    /// The Callx invariant checks over every push the scenario's devices got and every event its feeds returned.
    func callxInvariantFailures() -> [CheckFailure] {
        let list = devices.values.sorted { $0.name < $1.name }
        let captures = judgedCaptures()
        let state = callx
        let events = CallxRunState.judgedEvents(state.feeds, ownCalls: ownCalls)
        var context = InvariantContext(
            devices: list.map {
                InvariantDevice(name: $0.name, kind: $0.kind, environment: $0.environment, tokens: $0.tokens)
            },
            voipTopic: mocks.settings.apnsVoIPTopic, calls: Array(state.calls.values),
            inFlightMarginMs: inFlightMarginMs, mediaCredentials: state.mediaCredentials,
            providerSecrets: providerSecrets,
            levels: InvariantLevels(catalogue: catalogue))
        context.values = target.mapping?.values ?? ValueMaps()
        let violations = InvariantChecker.check(captures: captures, events: events, context: context)
        let bySequence = Dictionary(captures.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        return failures(for: violations, on: "every push and event", note: { $0.message }) { v in
            let pushes = v.captures.compactMap { seq in
                bySequence[seq].map { pushEvidence($0, to: deviceName(for: $0)) }
            }
            return pushes
                + v.events.compactMap { i in
                    events.indices.contains(i)
                        ? EvidenceItem(
                            kind: .event, title: "event read by \(events[i].feed)", text: events[i].json.serialized())
                        : nil
                }
        }
    }
}

extension CallxRunState {
    /// The events the invariants judge: those of the scenario's own calls (and any that names no call),
    /// from every feed it read, in feed order.
    static func judgedEvents(_ feeds: [String: FeedState], ownCalls: Set<String>) -> [ObservedEvent] {
        var events: [ObservedEvent] = []
        for (reader, feed) in feeds.sorted(by: { $0.key < $1.key }) {
            for e in feed.events where e["callId"]?.stringValue.map(ownCalls.contains) ?? true {
                events.append(ObservedEvent(feed: reader, json: e))
            }
        }
        return events
    }
}
