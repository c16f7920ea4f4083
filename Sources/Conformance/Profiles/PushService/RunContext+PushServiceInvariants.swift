import PushMocks
import Reports

extension RunContext {
    /// The push-service invariants over every push the scenario's devices got. Every token is fresh for the run, so
    /// each push to one is this scenario's, whatever call it names (a generated call ID is known only from the pushes):
    /// their calls are claimed first, and the pushes put on the timeline.
    func pushServiceInvariantFailures() -> [CheckFailure] {
        let known = pushService.devices
        let all = mocks.log.captures { c in device(for: c) != nil }
        for c in all { if let id = PushServicePush(c)?.callId { claimCall(id) } }
        recordJudgedPushes()
        let pushes = all.compactMap { c -> PushServiceJudgedPush? in
            guard
                let d = known.values.first(where: { d in
                    d.tokens.contains { $0.lowercased() == PushServiceCounts.token(of: c)?.lowercased() }
                })
            else { return nil }
            return PushServiceJudgedPush(capture: c, device: d)
        }
        let settings = mocks.settings
        let violations = PushServiceInvariants.check(
            pushes, notifications: pushService.notifications, bundleId: settings.apnsBundleID,
            voipTopic: settings.apnsVoIPTopic)
        let bySequence = Dictionary(pushes.map { ($0.capture.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        return violations.map { v in
            record(.note, "invariants", "FAILED \(v.requirement): \(v.field) \(v.actual)")
            let evidence =
                bySequence[v.sequence].map { push in
                    [
                        EvidenceItem(
                            kind: .push, title: "push #\(v.sequence) to \(push.device.name)",
                            text: push.capture.json(revealSecrets: false).serialized(pretty: true))
                    ]
                } ?? []
            return CheckFailure(
                requirement: v.requirement, level: level(v.requirement),
                check: "invariant \(v.field) on every push", expected: v.expected, actual: v.actual,
                evidence: evidence)
        }
    }
}
