import Conformance
import PushMocks
import Reports

extension RunContext {
    /// The DialStack invariants and the latency over every push the scenario's devices got for its own webhooks;
    /// the latency's p50 and maximum go on the timeline of every run that saw a push, and so does a note for each
    /// push its content ties to no one webhook (unattributed, charged to no requirement).
    func dialStackInvariantFailures() -> [CheckFailure] {
        noteDialStackAPICalls()
        let deliveries = dialStack.deliveries
        let pushes = judgedCaptures().compactMap { c -> DialStackJudgedPush? in
            guard let d = device(for: c) else { return nil }
            return DialStackJudgedPush(capture: c, device: d.name, user: d.user)
        }
        let (violations, notes) = DialStackInvariants.judge(
            pushes, deliveries: deliveries, voipTopic: mocks.settings.apnsVoIPTopic, otherCalls: claimedCalls)
        for text in notes { record(.note, "dialstack", text) }
        let latency = DialStackLatency(pushes, deliveries: deliveries)
        if !latency.samples.isEmpty { record(.note, "dialstack", latency.summary) }
        let bySequence = Dictionary(pushes.map { ($0.capture.sequence, $0) }, uniquingKeysWith: { a, _ in a })
        func evidence(_ sequence: Int?) -> [EvidenceItem] {
            guard let push = sequence.flatMap({ bySequence[$0] }) else { return [] }
            return [pushEvidence(push.capture, to: push.device)]
        }
        var failures = failures(for: violations, on: "every wake-up push") { evidence($0.sequence) }
        for sample in latency.tooSlow {
            failures.append(
                failure(
                    DialStackRequirement.latency, check: "latency of every wake-up push",
                    expected: "at most \(DialStackTiming.latencyBoundMs) ms from the webhook to the push",
                    actual:
                        "\(sample.milliseconds) ms to \(sample.device) for event \(sample.eventId) (\(latency.summary))",
                    evidence: evidence(sample.sequence),
                    note: "\(sample.device) woken \(sample.milliseconds) ms after the webhook", noteActor: "invariants")
            )
        }
        return failures
    }
}
