import Conformance
import HTTP
import JSON
import Reports

extension RunContext {
    // MARK: Reading the feed

    func feedLabel(_ actor: StepActor) -> String {
        switch actor {
        case .user(let n): return n
        case .device(let n): return n
        }
    }

    /// One page of `reader`'s feed after `cursor`.
    func readPage(_ reader: String, cursor: String?, limit: Int?) async throws -> Exchange {
        let feed = try self.feed(reader)
        guard let account = users[feed.user] else { throw HarnessStop(message: "unknown reader '\(reader)'") }
        var path = target.routes.events + "?installationId=" + RequestTemplate.percentEncode(feed.installationId)
        if let cursor { path += "&cursor=" + RequestTemplate.percentEncode(cursor) }
        if let limit { path += "&limit=\(limit)" }
        var values: [String: JSONValue] = [
            "installationId": .string(feed.installationId), "userId": .string(account.userId),
        ]
        if let cursor { values["cursor"] = .string(cursor) }
        if let limit { values["limit"] = .int(limit) }
        return await sendUnrecorded(
            PreparedRequest(
                actor: reader, method: "GET", path: path, credentials: account.authHeaders, operation: .events,
                values: values))
    }

    /// Adds events not seen before (by eventId) to `reader`'s feed; returns how many were new.
    @discardableResult
    func absorb(_ events: [JSONValue], into reader: String) -> Int {
        var n = 0
        for e in events {
            let id = e["eventId"]?.stringValue ?? e.serialized()
            guard callx.feeds[reader]?.eventIds.insert(id).inserted == true else { continue }
            callx.feeds[reader]?.events.append(e)
            // Another scenario's call (fixed accounts are shared) tells nothing about this one's calls.
            if let callId = e["callId"]?.stringValue, ownCalls.contains(callId) { observeCall(e, isEvent: true) }
            n += 1
            record(
                .event, reader,
                "\(e["type"]?.stringValue ?? "?") rev \(e["revision"]?.stringValue ?? "?")\(e["reason"]?.stringValue.map { " \($0)" } ?? "")",
                e.serialized())
        }
        return n
    }

    /// Reads `reader`'s feed from its cursor to the end.
    func drainFeed(_ reader: String) async throws {
        for _ in 0..<50 {
            let ex = try await readPage(reader, cursor: callx.feeds[reader]?.cursor, limit: nil)
            guard ex.isSuccess, let json = ex.json else {
                recordResponse(ex)
                throw HarnessStop(
                    message: "reading \(reader)'s events failed: \(ex.status.map(String.init) ?? ex.error ?? "?")")
            }
            let events = json["events"]?.arrayValue ?? []
            absorb(events, into: reader)
            let next = json["nextCursor"]?.stringValue
            let moved = next != nil && next != callx.feeds[reader]?.cursor
            if let next { callx.feeds[reader]?.cursor = next }
            if events.isEmpty || !moved { return }
        }
    }

    func eventMatches(_ e: JSONValue, type: String?, call: String?, matchers: [PathMatcher]) -> Bool {
        if let type, e["type"]?.stringValue != type { return false }
        if let call, e["callId"]?.stringValue != call { return false }
        return MatcherEvaluator.holds(target.readable(matchers, in: e).judged, in: e)
    }

    func firstUnconsumed(_ reader: String, type: String?, call: String?, matchers: [PathMatcher]) -> Int? {
        guard let feed = callx.feeds[reader] else { return nil }
        return feed.events.indices.first {
            !feed.consumed.contains($0) && eventMatches(feed.events[$0], type: type, call: call, matchers: matchers)
        }
    }

    func eventEvidence(_ reader: String) -> [EvidenceItem] {
        let events = callx.feeds[reader]?.events ?? []
        if events.isEmpty { return [EvidenceItem(kind: .note, title: "no event reached \(reader)", text: "")] }
        return [
            EvidenceItem(
                kind: .event, title: "\(reader)'s feed (\(events.count) events)",
                text: events.map { $0.serialized() }.joined(separator: "\n"))
        ]
    }

    // MARK: expectEvent / expectNoEvent

    func expectEvent(_ e: ExpectEventStep, step: ScenarioStep) async throws {
        let reader = feedLabel(e.actor)
        let call = try e.call.map { try resolver.string($0) }
        let matchers = try resolver.resolve(e.match)
        let deadline = ContinuousClock.now + e.within.duration
        while true {
            try await drainFeed(reader)
            if let i = firstUnconsumed(reader, type: e.type, call: call, matchers: matchers) {
                callx.feeds[reader]?.consumed.insert(i)
                if let event = callx.feeds[reader]?.events[i] {
                    for u in target.readable(matchers, in: event).unreadable {
                        note("\(step.path) expectEvent \(e.type) for \(reader): \(u.path) not applicable: \(u.reason)")
                    }
                    if let save = e.save { resolver.saved[save] = event }
                }
                return
            }
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: pollInterval)
        }
        let expected = "\(e.type)\(call.map { " for call \($0)" } ?? "") within \(e.within)"
        let check = "\(step.path) expectEvent \(e.type) for \(reader)"
        if let near = firstUnconsumed(reader, type: e.type, call: call, matchers: []),
            let event = callx.feeds[reader]?.events[near]
        {
            // The event came; each field that differs is charged to its own requirement.
            let judged = target.readable(matchers, in: event).judged
            for group in MatcherEvaluator.mismatchesByRequirement(judged, in: event, fallback: e.requirement) {
                try fail(
                    group.requirement, check: check, expected: expected,
                    actual: "no matching event within \(e.within); the nearest differs:\n"
                        + group.problems.joined(separator: "\n"),
                    evidence: eventEvidence(reader))
            }
            return
        }
        try fail(
            e.requirement, check: check, expected: expected, actual: "no matching event within \(e.within)",
            evidence: eventEvidence(reader))
    }

    func expectNoEvent(_ e: ExpectNoEventStep, step: ScenarioStep) async throws {
        let reader = feedLabel(e.actor)
        let call = try e.call.map { try resolver.string($0) }
        let matchers = try resolver.resolve(e.match)
        let deadline = ContinuousClock.now + e.duration.duration
        while true {
            try await drainFeed(reader)
            if let i = firstUnconsumed(reader, type: e.type, call: call, matchers: matchers),
                let event = callx.feeds[reader]?.events[i]
            {
                try fail(
                    e.requirement, check: "\(step.path) expectNoEvent \(e.type ?? "any") for \(reader)",
                    expected: "no \(e.type ?? "") event\(call.map { " for call \($0)" } ?? "") for \(e.duration)",
                    actual: "got \(event.serialized())", evidence: eventEvidence(reader))
                return
            }
            if ContinuousClock.now >= deadline { return }
            try await Task.sleep(for: pollInterval)
        }
    }

    // MARK: pollEvents

    func pollEvents(_ p: PollEventsStep, step: ScenarioStep) async throws {
        let reader = feedLabel(p.actor)
        var cursor = try p.cursor.map { try resolver.string($0) }
        var all: [JSONValue] = []
        var seen: [String: Int] = [:]
        var duplicates: [String] = []
        var gap = false
        var exchanges: [Exchange] = []
        for _ in 0..<(p.drain ? 200 : 1) {
            let ex = try await readPage(reader, cursor: cursor, limit: p.drain ? target.eventPageLimit : nil)
            recordResponse(ex)
            exchanges.append(ex)
            guard ex.isSuccess, let json = ex.json else { break }
            let events = json["events"]?.arrayValue ?? []
            for e in events {
                let id = e["eventId"]?.stringValue ?? e.serialized()
                seen[id, default: 0] += 1
                if seen[id] == 2 { duplicates.append(id) }
                all.append(e)
            }
            absorb(events, into: reader)
            if FeedGap.isSignalled(json["gap"]) { gap = true }
            let next = json["nextCursor"]?.stringValue
            let moved = next != nil && next != cursor
            cursor = next ?? cursor
            if events.isEmpty || !moved { break }
        }
        guard let last = exchanges.last else { return }
        // The step's response is the whole drained feed, judged as one; the first non-2xx page stands for it.
        var combined = exchanges.first { !$0.isSuccess } ?? last
        if combined.isSuccess {
            var doc: JSONValue = ["events": .array(all), "gap": .bool(gap)]
            if let cursor { doc = doc.setting("nextCursor", to: .string(cursor)) }
            combined.json = doc
            combined.responseBody = Array(doc.serialized().utf8)
        }
        try judge(combined, p.options, step: step, inRace: false)
        if !duplicates.isEmpty {
            try fail(
                p.options.expect?.requirement, check: "\(step.path) pollEvents: paging returns each event once",
                expected: "every eventId once across \(exchanges.count) pages",
                actual: "repeated: " + duplicates.joined(separator: ", "), evidence: exchanges.map(evidence))
        }
    }
}
