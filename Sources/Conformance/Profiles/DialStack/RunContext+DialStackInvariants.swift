import PushMocks
import Reports

extension RunContext {
    /// The DialStack invariants and the latency over every push the scenario's devices got for its own webhooks;
    /// the latency's p50 and maximum go on the timeline of every run that saw a push.
    func dialStackInvariantFailures() -> [CheckFailure] {
        let deliveries = dialStack.deliveries
        let pushes = judgedCaptures().compactMap { c -> DialStackJudgedPush? in
            guard let d = device(for: c) else { return nil }
            return DialStackJudgedPush(capture: c, device: d.name, user: d.user)
        }
        let violations = DialStackInvariants.check(
            pushes, deliveries: deliveries, voipTopic: mocks.settings.apnsVoIPTopic)
        let latency = DialStackLatency(pushes, deliveries: deliveries)
        if !latency.samples.isEmpty { record(.note, "dialstack", latency.summary) }
        let bySequence = Dictionary(pushes.map { ($0.capture.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        func evidence(_ sequence: Int) -> [EvidenceItem] {
            guard let push = bySequence[sequence] else { return [] }
            return [
                EvidenceItem(
                    kind: .push, title: "push #\(sequence) to \(push.device)",
                    text: push.capture.json(revealSecrets: false).serialized(pretty: true))
            ]
        }
        var failures = violations.map { v in
            record(.note, "invariants", "FAILED \(v.requirement): \(v.field) \(v.actual)")
            return CheckFailure(
                requirement: v.requirement, level: level(v.requirement),
                check: "invariant \(v.field) on every wake-up push", expected: v.expected, actual: v.actual,
                evidence: evidence(v.sequence))
        }
        for sample in latency.tooSlow {
            let id = DialStackRequirement.latency
            record(
                .note, "invariants", "FAILED \(id): \(sample.device) woken \(sample.milliseconds) ms after the webhook")
            failures.append(
                CheckFailure(
                    requirement: id, level: level(id), check: "latency of every wake-up push",
                    expected: "at most \(DialStackTiming.latencyBoundMs) ms from the webhook to the push",
                    actual:
                        "\(sample.milliseconds) ms to \(sample.device) for event \(sample.eventId) (\(latency.summary))",
                    evidence: evidence(sample.sequence)))
        }
        return failures
    }
}
