import Conformance
import JSON
import PushMocks

/// The invariants that hold for every captured push and every observed event of every scenario, as a
/// pure function: captures, events and what the engine knows in, violations out. No sockets, no clock.
///
/// Callx's rules are small named values, one per requirement (`Rule`), composed into lists per subject:
/// per push alone (`PushProfile.rules`: `APNsRules`, `FCMRules` with `InvitationRules`, `SecretRules`), applied to
/// **everything the backend sent**, accepted or rejected by the mock, because they judge what the backend built;
/// per push against the scenario (`AcrossPushRules`: environment, timeline, one delivery, one eventId per message);
/// per event (`EventRules`). What a rule needs from the pushes and events before it (the first delivery, an
/// earlier use of an eventId, a feed's previous revision) is worked out here in order and handed to it in its
/// subject.
///
/// OAuth captures are not pushes and are ignored. Violations come in capture order, then events; each carries the
/// level a check outside a run reports (the catalogue's, or SHOULD for a heuristic finding).
public enum InvariantChecker {
    /// Every violation in one scenario's captures and events.
    public static func check(captures: [Capture], events: [ObservedEvent] = [], context: InvariantContext)
        -> [Violation]
    {
        check(pushes: captures.compactMap(PushDocument.init(capture:)), events: events, context: context)
    }

    /// Every violation in pushes read some other way (e.g. captures rendered as JSON).
    public static func check(pushes: [PushDocument], events: [ObservedEvent] = [], context: InvariantContext)
        -> [Violation]
    {
        var eventIds = EventIdRegistry(values: context.values)
        return check(pushes: pushes, events: events, context: context, registry: &eventIds)
    }

    /// `check(pushes:events:context:)` with the eventIds already used elsewhere (load mode's earlier calls):
    /// the same eventId on another message is found across checks.
    static func check(
        pushes: [PushDocument], events: [ObservedEvent], context: InvariantContext,
        registry eventIds: inout EventIdRegistry
    ) -> [Violation] {
        let rules = PushProfile.rules + AcrossPushRules.all
        var out: [Violation] = []
        var deliveries = DeliveryLedger()
        for push in arrivalOrder(pushes) {
            let subject = CallxPushSubject(
                push, context: context, earlierDelivery: deliveries.record(push, context: context),
                eventIdClash: eventIds.record(push))
            out += rules.violations(of: subject, captures: push.sequence.map { [$0] } ?? [])
        }
        out += eventViolations(events, registry: &eventIds)
        return out.atLevels(context.levels)
    }

    /// The pushes in the order they arrived (then by capture sequence, then as given).
    static func arrivalOrder(_ pushes: [PushDocument]) -> [PushDocument] {
        pushes.enumerated().sorted { a, b in
            let ka = (a.element.arrivalMs ?? 0, a.element.sequence ?? 0, a.offset)
            let kb = (b.element.arrivalMs ?? 0, b.element.sequence ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
    }

    /// The violations of `EventRules` over the events, the same event read twice from one feed judged once.
    static func eventViolations(_ events: [ObservedEvent], registry: inout EventIdRegistry) -> [Violation] {
        var out: [Violation] = []
        var seen: Set<String> = []
        var lastRevision: [String: (revision: String, index: Int)] = [:]
        for (index, event) in events.enumerated() {
            let json = event.json
            guard seen.insert(event.feed + "|" + json.serialized(sortedKeys: true)).inserted else { continue }
            var subject = CallxEventSubject(event: event, earlierUse: registry.record(event: json, index: index))
            if let callId = json["callId"]?.stringValue, let revision = json["revision"]?.stringValue,
                ValueRules.isCanonicalDecimal(revision)
            {
                let key = event.feed + "|" + callId
                subject.previousRevision = lastRevision[key]
                lastRevision[key] = (revision, index)
            }
            out += EventRules.all.violations(of: subject, events: [index])
        }
        return out
    }
}

extension Array where Element == Violation {
    /// The violations with the level a check outside a run reports: the catalogue's (`levels`), unless a rule
    /// gave a finding its own (a heuristic's SHOULD).
    func atLevels(_ levels: InvariantLevels) -> [Violation] {
        map { v in
            var v = v
            v.level = v.level ?? levels[v.requirement.rawValue]
            return v
        }
    }
}
