import JSON
import PushMocks
import Reports

/// A captured push as scenarios match it: `{device, kind, host, path, deviceToken, headers, body,
/// <profile's part, under its PushView.key>, receivedAtMs, status, outcome}`, as the device's channel reads the capture
/// (its kind, real host and token); the provider's credential headers keep only their scheme.
package enum PushMatchDocument {
    static func build(_ c: Capture, device: String, channel: PushChannel, view: PushView?) -> JSONValue {
        var headers: [(key: String, value: JSONValue)] = []
        for field in c.headers {
            var value = field.value
            if channel.carrier.credentialHeaders.contains(field.name) {
                value = (value.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "") + " <redacted>"
            }
            if !headers.contains(where: { $0.key == field.name }) { headers.append((field.name, .string(value))) }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("device", .string(device)),
            ("kind", .string(channel.rawValue)),
            ("host", .string(channel.carrier.realHost(of: c))),
            ("path", .string(c.path)),
            ("deviceToken", .string(channel.carrier.deviceToken(of: c) ?? "")),
            ("headers", .object(headers)),
            ("body", c.json ?? .null),
        ]
        if let view { members.append((view.key, view.document)) }
        members += [
            ("receivedAtMs", .int(c.arrivalMs)),
            ("status", .int(c.response.status)),
            ("outcome", .string(c.outcome.isAccepted ? "accepted" : "rejected")),
        ]
        return .object(members)
    }
}

extension ScenarioRun {
    static func capture(_ c: Capture, isFor d: DeviceIdentity) -> Bool { d.kind.capture(c, reachesAnyOf: d.tokens) }

    /// A predicate for pushes to `device` of `type` (any when nil) for `call`, matching `matchers`, not consumed.
    func pushPredicate(
        device d: DeviceIdentity, type: String?, call: String?, matchers: [PathMatcher], acceptedOnly: Bool
    ) -> @Sendable (Capture) -> Bool {
        let consumed = consumedPushes
        let profile = engine.profile
        let claims = engine.claimedCalls
        return { c in
            guard !consumed.contains(c.sequence), Self.capture(c, isFor: d) else { return false }
            if acceptedOnly && !c.outcome.isAccepted { return false }
            let view = profile.pushView(c)
            if let type, view?.type != type { return false }
            // By content, the push is `call`'s when it carries its ID and no other claimed call's (then it is
            // unattributable, and no step counts it for either).
            if let call, view?.calls(among: { $0 == call || claims.contains($0) }) != [call] { return false }
            if matchers.isEmpty { return true }
            return MatcherEvaluator.holds(
                matchers, in: PushMatchDocument.build(c, device: d.name, channel: d.kind, view: view))
        }
    }

    public func device(_ name: String) throws -> DeviceIdentity {
        guard let d = devices[name] else { throw HarnessStop(message: "unknown device '\(name)'") }
        return d
    }

    func pushEvidence(_ d: DeviceIdentity) -> [EvidenceItem] {
        let all = engine.mocks.log.captures { Self.capture($0, isFor: d) }
        let refused = StreamRefusalEvidence.items(
            engine.mocks.log.refusals(sinceMs: startedWallMs), device: d, startedMs: startedWallMs)
        if all.isEmpty { return [EvidenceItem(kind: .note, title: "no push reached \(d.name)", text: "")] + refused }
        return all.suffix(6).map { c in
            EvidenceItem(
                kind: .push,
                title:
                    "\(d.name): \(pushSummary(c)) → \(c.response.status)\(consumedPushes.contains(c.sequence) ? " (already matched)" : "")",
                text: c.json(revealSecrets: false).serialized(pretty: true))
        } + refused
    }

    /// What the profile says of a push in a few words (`call.invited rev 3`).
    func pushSummary(_ c: Capture) -> String { engine.profile.pushView(c)?.summary ?? "?" }

    /// The match document of a push to `device`, as the suite's profile reads it.
    func matchDocument(_ c: Capture, device: DeviceIdentity) -> JSONValue {
        PushMatchDocument.build(c, device: device.name, channel: device.kind, view: engine.profile.pushView(c))
    }

    func recordPush(_ c: Capture, device: String) {
        guard timelinePushes.insert(c.sequence).inserted else { return }
        // Placed at its arrival, which may be well before the step that matched it.
        timeline.append(
            TimelineItem(
                atMs: Double(c.arrivalMs - startedWallMs), kind: .push, actor: device,
                summary: "\(c.mock.rawValue) \(pushSummary(c)) → \(c.response.status)",
                detail: c.json(revealSecrets: false).serialized()))
    }

    // MARK: expectPush / expectNoPush

    func expectPush(_ e: ExpectPushStep, step: ScenarioStep) async throws {
        let call = try e.call.map { try resolver.string($0) }
        let matchers = try resolver.resolve(e.match)
        // Naming the provider's answer means the scenario wants attempts, refused ones included.
        let acceptedOnly = !matchers.contains { $0.path == "status" || $0.path == "outcome" }
        let deadline = ContinuousClock.now + e.within.duration
        for (i, name) in e.to.enumerated() {
            let d = try device(name)
            let predicate = pushPredicate(
                device: d, type: e.type, call: call, matchers: matchers, acceptedOnly: acceptedOnly)
            let remaining = max(deadline - ContinuousClock.now, .zero)
            let found = await engine.mocks.log.waitFor(count: e.count, matching: predicate, timeout: remaining)
            try Task.checkCancellation()
            for c in found.prefix(e.count) {
                consumedPushes.insert(c.sequence)
                recordPush(c, device: name)
            }
            if found.count >= e.count {
                if i == 0, let save = e.save, let first = found.first {
                    resolver.saved[save] = matchDocument(first, device: d)
                }
                continue
            }
            let expected =
                "\(e.count) \(e.type ?? "any") push(es)\(call.map { " for call \($0)" } ?? "") within \(e.within)"
            let check = "\(step.path) expectPush to \(name)"
            let counted = "\(found.count) matching push(es) within \(e.within)"
            // The cause first: when the provider refused the pushes, that is what the reader must see.
            let cause = refusalCause(d, type: e.type, call: call, acceptedOnly: acceptedOnly)
            let head = cause.map { "\($0); \(counted)" } ?? counted
            // Say why near misses did not match, each field charged to its own requirement.
            let loose = engine.mocks.log.captures(
                where: pushPredicate(device: d, type: e.type, call: call, matchers: [], acceptedOnly: acceptedOnly))
            let groups =
                loose.first.map {
                    MatcherEvaluator.mismatchesByRequirement(
                        matchers, in: matchDocument($0, device: d), fallback: e.requirement)
                } ?? []
            if groups.isEmpty {
                try fail(e.requirement, check: check, expected: expected, actual: head, evidence: pushEvidence(d))
            }
            for group in groups {
                try fail(
                    group.requirement, check: check, expected: expected,
                    actual: head + "; the nearest push differs:\n" + group.problems.joined(separator: "\n"),
                    evidence: pushEvidence(d))
            }
        }
    }

    /// "APNs refused 12 pushes to b-phone: 429 TooManyProviderTokenUpdates" when the provider refused
    /// the device's pushes of this type and call (an `expectPush` that counts accepted pushes only then
    /// finds none for that reason, not because the backend sent nothing); nil when nothing was refused.
    func refusalCause(_ d: DeviceIdentity, type: String?, call: String?, acceptedOnly: Bool) -> String? {
        guard acceptedOnly else { return nil }
        let refused = engine.mocks.log.captures(
            where: pushPredicate(device: d, type: type, call: call, matchers: [], acceptedOnly: false)
        ).filter { !$0.outcome.isAccepted }
        guard !refused.isEmpty else { return nil }
        var reasons: [(String, Int)] = []
        for c in refused {
            let r = "\(c.response.status) \(c.outcome.reason ?? "")".trimmingCharacters(in: .whitespaces)
            if let i = reasons.firstIndex(where: { $0.0 == r }) { reasons[i].1 += 1 } else { reasons.append((r, 1)) }
        }
        let provider = d.kind.carrier.displayName
        let list = reasons.map { $0.1 == refused.count ? $0.0 : "\($0.0) (\($0.1))" }.joined(separator: ", ")
        return "\(provider) refused \(refused.count) push\(refused.count == 1 ? "" : "es") to \(d.name): \(list)"
    }

    func expectNoPush(_ e: ExpectNoPushStep, step: ScenarioStep) async throws {
        let call = try e.call.map { try resolver.string($0) }
        let matchers = try resolver.resolve(e.match)
        let predicates = try e.to.map { name in
            (
                name,
                pushPredicate(
                    device: try device(name), type: e.type, call: call, matchers: matchers, acceptedOnly: false)
            )
        }
        let sinceMs = e.fromNow ? nowMs : Int64.min
        let beforeRefusal = DeadTokenRefusal.sentBeforeRefusal(
            engine.mocks.log, consumed: consumedPushes, devices: try e.to.map { try device($0) })
        let notCaused = engine.profile.pushesNotCausedBy(of: e.requirement, call: call, with: self)
        let combined: @Sendable (Capture) -> Bool = { c in
            c.arrivalMs >= sinceMs && !beforeRefusal(c) && !notCaused(c) && predicates.contains { $0.1(c) }
        }
        let found = await engine.mocks.log.waitFor(combined, timeout: e.duration.duration)
        try Task.checkCancellation()
        guard let found else { return }
        let name = predicates.first { $0.1(found) }?.0 ?? "?"
        recordPush(found, device: name)
        let view = engine.profile.pushView(found)
        try fail(
            e.requirement, check: "\(step.path) expectNoPush to \(e.to.joined(separator: ", "))",
            expected:
                "no \(e.type ?? "") push\(call.map { " for call \($0)" } ?? "") for \(e.duration)"
                + (e.fromNow ? " from the step's start" : ""),
            actual: "\(name) got \(view?.type == nil ? "a push" : view?.summary ?? "a push")",
            evidence: [
                EvidenceItem(
                    kind: .push, title: "\(name): unexpected push",
                    text: found.json(revealSecrets: false).serialized(pretty: true))
            ])
    }
}
