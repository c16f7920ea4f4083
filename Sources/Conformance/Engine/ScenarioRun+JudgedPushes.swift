import PushMocks
import Reports

extension ScenarioRun {
    // MARK: The pushes a run judges

    /// Makes call `id` this scenario's own: the pushes that name it (`PushView.callId`), or carry it when the
    /// profile ties by content (`PushView.carried`), are judged. A profile step that starts a call claims it.
    public func claimCall(_ id: String) {
        ownCalls.insert(id)
        engine.claimedCalls.insert(id)
    }

    public var claimedCalls: Set<String> { engine.claimedCalls.all.union(ownCalls) }

    public func captures(for device: DeviceIdentity) -> [Capture] {
        engine.mocks.log.captures { Self.capture($0, isFor: device) }
    }

    /// The pushes the invariants judge: every capture of the scenario's devices, except those the profile
    /// places in a call the scenario did not create (with a target's shared fixed accounts, the devices
    /// also see other scenarios' calls, which those scenarios judge with what they know of them). A push tied by
    /// content is judged when it carries one of the scenario's calls or no claimed call at all (the profile
    /// reports what it cannot tie), not when it carries only other scenarios' calls.
    public func judgedCaptures() -> [Capture] {
        let list = devices.values.sorted { $0.name < $1.name }
        let own = ownCalls
        let claimed = claimedCalls
        let profile = engine.profile
        return engine.mocks.log.captures { c in
            guard list.contains(where: { Self.capture(c, isFor: $0) }) else { return false }
            guard let view = profile.pushView(c) else { return true }
            guard view.carried != nil else { return view.callId.map(own.contains) ?? true }
            let tied = view.calls(among: claimed.contains)
            return tied.isEmpty || !tied.isDisjoint(with: own)
        }
    }

    /// Every push the devices got goes on the timeline, at its arrival, whether or not a step matched it.
    public func recordJudgedPushes() {
        for c in judgedCaptures() where !timelinePushes.contains(c.sequence) {
            timelinePushes.insert(c.sequence)
            timeline.append(
                TimelineItem(
                    atMs: Double(c.arrivalMs - startedWallMs), kind: .push, actor: deviceName(for: c),
                    summary: "\(c.mock.rawValue) \(pushSummary(c)) → \(c.response.status)",
                    detail: c.json(revealSecrets: false).serialized()))
        }
    }

    public func device(for capture: Capture) -> DeviceIdentity? {
        devices.values.sorted { $0.name < $1.name }.first { Self.capture(capture, isFor: $0) }
    }
}

extension RunContext {
    /// The name of the scenario device a captured push went to (`?` when it went to none).
    package func deviceName(for c: Capture) -> String { device(for: c)?.name ?? "?" }
}
