import Conformance
import PushMocks

/// `expectWakeUps: {to, within, requirement}` — every wake-up webhook of the scenario that was signed validly, addressed to a user
/// and accepted (2xx) gets a push on each listed device (one carrying its call ID, `DialStackPush.carries`; a push
/// carrying no claimed call's ID, DIALSTACK-PUSH-1's finding, stands in for one; a push carrying only other
/// scenarios' calls, `RunContext.claimedCalls`, is theirs and counts for nothing here) by the deadline. Who is charged depends on what is missing: pushes for no accepted webhook at all are the rule the step
/// names (`requirement:`, DIALSTACK-WAKE-1 in the suites: pushing is broken, whatever the body); pushes for some accepted webhooks but not for others
/// that differ only in their JSON formatting are the signature rule's (DIALSTACK-SIG-1: a check that re-serialized
/// the body, made after the answer, dropped those).
struct WakeUpsStep: DecodableStep, Equatable {
    var to: [String]
    var within: ScenarioDuration
    /// What a backend that pushed for none of the accepted webhooks broke.
    var requirement: String

    static let keywords = ["expectWakeUps"]
    var explanation: String? {
        "Waits for a push for every accepted wake-up webhook on each device: none at all is \(requirement), "
            + "some formats only \(DialStackRequirement.rawBody.rawValue)"
    }

    static func decode(_ keyword: String, _ node: YAMLNode, path: String, decoder: inout ScenarioDecoder) -> Self? {
        let fields = ["to", "within", "requirement"]
        guard let f = decoder.d.mapping(node, path, known: fields, required: fields),
            let to = f["to"].flatMap({ decoder.deviceList($0.value, path + ".to") }),
            let within = f["within"].flatMap({ decoder.d.duration($0.value, path + ".within") }),
            let requirement = f["requirement"].flatMap({ decoder.requirement($0.value, path + ".requirement") })
        else { return nil }
        return WakeUpsStep(to: to, within: within, requirement: requirement)
    }

    func perform(_ step: ScenarioStep, with run: isolated any RunContext) async throws {
        let wakeUps = run.dialStack.deliveries.filter {
            $0.type == DialStackEvent.wakeUpType && $0.signedValidly && $0.user != nil && $0.callId != nil
                && ($0.status.map { (200..<300).contains($0) } ?? false)
        }
        guard !wakeUps.isEmpty else { return }  // nothing accepted: the webhook steps charged their answers
        let ids = wakeUps.compactMap(\.callId)
        let deadline = ContinuousClock.now + .milliseconds(within.milliseconds)
        for name in to {
            let device = try run.device(name)
            let (missing, untied) = await Self.missing(
                ids, on: device, in: run.mocks.log, claimed: { await run.claimedCalls }, until: deadline)
            guard missing.count > untied else { continue }
            let lacking = wakeUps.filter { missing.contains($0.callId ?? "") }
            let none = lacking.count == wakeUps.count && untied == 0
            // Pushes without the call ID (PUSH-1's finding) still count as pushes; then which format lacks one is unknown.
            let which =
                untied == 0
                ? "none for the \(lacking.map(\.format).joined(separator: ", ")) bod\(lacking.count == 1 ? "y" : "ies")"
                : "\(missing.count - untied) of them without a push"
            try run.fail(
                none ? requirement : DialStackRequirement.rawBody.rawValue,
                check: "\(step.path) expectWakeUps to \(name)",
                expected: "a push for each of the \(wakeUps.count) accepted wake-up webhooks within \(within)",
                actual: none
                    ? "no push for any of them (the backend answered 2xx to every format and woke no one)"
                    : which + ", though the others were pushed: the signature check depends on the JSON formatting")
        }
    }

    /// The call IDs among `ids` with no accepted push to `device` by `deadline`, and how many accepted pushes to it
    /// stand in for one: those carrying no `claimed` call's ID (no call ID at all, or an unknown one), or several of
    /// `ids`. With a target's fixed accounts the device also gets other scenarios' pushes: one carrying only calls
    /// other scenarios claimed (read again on every round: they claim as they go) is theirs, and stands in for none
    /// of this scenario's.
    static func missing(
        _ ids: [String], on device: DeviceIdentity, in log: CaptureLog,
        claimed: @escaping @Sendable () async -> Set<String>, until deadline: ContinuousClock.Instant
    ) async -> (missing: Set<String>, untied: Int) {
        let tokens = device.tokens
        let kind = device.kind
        @Sendable func pushed(_ c: Capture) -> DialStackPush? {
            guard c.outcome.isAccepted, kind.capture(c, reachesAnyOf: tokens) else { return nil }
            return DialStackPush(c)
        }
        // A second push for one call is no push for another: wait for one more push at a time until every call has
        // one (or as many untied pushes stand in) or the deadline passes.
        while true {
            let others = await claimed().subtracting(ids)
            let pushes = log.captures(where: { pushed($0) != nil }).compactMap(pushed)
            var seen = Set<String>()
            var untied = 0
            for push in pushes {
                let carried = ids.filter(push.carries)
                // Carrying several calls' IDs, it is no one's push (by content): it stands in as an untied one.
                if carried.count == 1 && push.strings.isDisjoint(with: others) {
                    seen.formUnion(carried)
                } else if !carried.isEmpty || push.strings.isDisjoint(with: others) {
                    untied += 1
                }
            }
            let missing = Set(ids).subtracting(seen)
            let remaining = deadline - ContinuousClock.now
            if missing.count <= untied || remaining <= .zero || Task.isCancelled { return (missing, untied) }
            _ = await log.waitFor(count: pushes.count + 1, matching: { pushed($0) != nil }, timeout: remaining)
        }
    }
}
