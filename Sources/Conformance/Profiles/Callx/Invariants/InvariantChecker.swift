import JSON
import PushMocks

/// The invariants that hold for every captured push and every observed event of every scenario, as a
/// pure function: captures, events and what the engine knows in, violations out. No sockets, no clock.
///
/// Per push (`PushProfile`): headers, payload and secrets, applied to **everything the backend sent**,
/// accepted or rejected by the mock, because they judge what the backend built.
///
/// Across pushes and against the call's timeline:
///
/// | rule | applies to | requirement |
/// |---|---|---|
/// | an APNs push goes to the host of the token's registered environment | all sent | CALLX-APNS-7 |
/// | no invitation arrives after the engine saw the call answered, ended or expired (or after the invitation's own `expiresAtMs`), plus `inFlightMarginMs`; one whose `issuedAtMs` is no later than that moment was in flight and may arrive up to `inFlightIssuedBoundMs` after it | all sent | CALLX-EXP-2 |
/// | at most one invitation per device and call, unless a repeat carries the first one's eventId | accepted only (a retry after a rejection is not a second delivery) | CALLX-OUTBOX-4 |
/// | an eventId names one message: the same eventId on invitations of different calls | all sent | CALLX-INV-5 |
///
/// Events (`EventInvariants`): event fields (CALLX-EVT-2), eventIds shared only by the same event
/// and increasing revisions per call in each feed (CALLX-EVT-3).
///
/// OAuth captures are not pushes and are ignored. Violations come in capture order, then events.
public enum InvariantChecker {
    /// Every violation in one scenario's captures and events.
    public static func check(captures: [Capture], events: [ObservedEvent] = [], context: InvariantContext)
        -> [InvariantViolation]
    {
        check(pushes: captures.compactMap(PushDocument.init(capture:)), events: events, context: context)
    }

    /// Every violation in pushes read some other way (e.g. captures rendered as JSON).
    public static func check(pushes: [PushDocument], events: [ObservedEvent] = [], context: InvariantContext)
        -> [InvariantViolation]
    {
        var eventIds = EventIdRegistry()
        return check(pushes: pushes, events: events, context: context, registry: &eventIds)
    }

    /// `check(pushes:events:context:)` with the eventIds already used elsewhere (load mode's earlier calls):
    /// the same eventId on another message is found across checks.
    static func check(
        pushes: [PushDocument], events: [ObservedEvent], context: InvariantContext,
        registry eventIds: inout EventIdRegistry
    ) -> [InvariantViolation] {
        let ordered = pushes.enumerated().sorted { a, b in
            let ka = (a.element.arrivalMs ?? 0, a.element.sequence ?? 0, a.offset)
            let kb = (b.element.arrivalMs ?? 0, b.element.sequence ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
        var out: [InvariantViolation] = []
        var deliveries = DeliveryLedger()
        for push in ordered {
            out += PushProfile.check(push, context: context)
            var r = ViolationRecorder(levels: context.levels, captures: push.sequence.map { [$0] } ?? [])
            checkEnvironment(push, context: context, into: &r)
            checkTimeline(push, context: context, into: &r)
            if push.accepted ?? true { deliveries.record(push, context: context, into: &r) }
            eventIds.record(push, into: &r)
            out += r.violations
        }
        out += EventInvariants.check(events, registry: &eventIds, levels: context.levels)
        return out
    }

    // MARK: Environment

    static func checkEnvironment(_ push: PushDocument, context: InvariantContext, into r: inout ViolationRecorder) {
        guard push.kind == .apns, let environment = push.environment,
            let device = context.device(token: push.deviceToken), device.kind == .apnsVoip,
            let registered = device.environment, registered.rawValue != environment.rawValue
        else { return }
        r.add(
            "CALLX-APNS-7", "host",
            expected: "APNs \(registered.rawValue) (\(device.name)'s token is registered for \(registered.rawValue))",
            actual: "APNs \(environment.rawValue)")
    }

    // MARK: Invitations after the call stopped ringing

    static func checkTimeline(_ push: PushDocument, context: InvariantContext, into r: inout ViolationRecorder) {
        guard push.isInvitation, let arrival = push.arrivalMs, let callx = push.callx else { return }
        let callId = callx["callId"]?.stringValue ?? ""
        var stops: [(atMs: Int64, why: String)] = []
        if let stopped = context.calls[callId]?.stoppedRinging { stops.append(stopped) }
        if let own = ValueRules.millis(callx["expiresAtMs"]) { stops.append((own, "past its expiresAtMs")) }
        guard let stop = stops.min(by: { $0.atMs < $1.atMs }) else { return }
        let late = arrival - stop.atMs
        guard late > context.inFlightMarginMs else { return }
        // Stamped by the backend as sent no later than the stop, and not absurdly late: it was in flight
        // (queued in the backend's HTTP/2 client on a loaded machine, say), not sent after the end.
        if let issued = ValueRules.millis(callx["issuedAtMs"]), issued <= stop.atMs,
            late <= context.inFlightIssuedBoundMs
        {
            return
        }
        let device = context.device(token: push.deviceToken)?.name ?? "the device"
        r.add(
            "CALLX-EXP-2", "",
            expected: "no invitation to \(device) after call \(callId) was \(stop.why) at \(stop.atMs) "
                + "(+\(context.inFlightMarginMs) ms in flight)",
            actual: "an invitation arrived at \(arrival), \(late) ms later")
    }
}

/// Accepted invitations per device and call: the first one's eventId, to judge repeats.
struct DeliveryLedger {
    var first: [String: (sequence: Int?, eventId: String?)] = [:]

    mutating func record(_ push: PushDocument, context: InvariantContext, into r: inout ViolationRecorder) {
        guard push.isInvitation, let callx = push.callx, let callId = callx["callId"]?.stringValue else { return }
        let device = context.device(token: push.deviceToken)?.name ?? push.deviceToken ?? "?"
        let key = push.kind.rawValue + "|" + device + "|" + callId
        let eventId = callx["eventId"]?.stringValue
        guard let earlier = first[key] else {
            first[key] = (push.sequence, eventId)
            return
        }
        if eventId == nil || eventId != earlier.eventId {
            r.add(
                "CALLX-OUTBOX-4", "callx.eventId",
                expected: "no second invitation to \(device) for call \(callId), or the same eventId "
                    + (earlier.eventId.map(Describe.quoted) ?? "(the first had none)"),
                actual: eventId.map(Describe.quoted) ?? "absent", extraCaptures: earlier.sequence.map { [$0] } ?? [])
        }
    }
}
