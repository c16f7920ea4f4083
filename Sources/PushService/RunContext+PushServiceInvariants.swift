import Conformance
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
        let (violations, notes) = PushServiceInvariants.judge(
            pushes, notifications: pushService.notifications, bundleId: settings.apnsBundleID,
            voipTopic: settings.apnsVoIPTopic)
        for text in notes { record(.note, "push-service", text) }
        let bySequence = Dictionary(pushes.map { ($0.capture.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        return failures(for: violations, on: "every push") { v in
            v.sequence.flatMap { bySequence[$0] }.map { [pushEvidence($0.capture, to: $0.device.name)] } ?? []
        }
    }
}
